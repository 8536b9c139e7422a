-- Administration and roles: disabled users, and tokens with a role and a
-- creator.

-- A disabled user cannot log in, and the user's sessions and tokens stop
-- working; an administrator may enable the user again. Unix seconds of
-- the change, 0 while enabled.
ALTER TABLE users ADD COLUMN disabled_at INTEGER NOT NULL DEFAULT 0;

-- Disabling must reach every process at once, as a password change does.
CREATE TRIGGER versions_user_disabled AFTER UPDATE OF disabled_at ON users
WHEN (old.disabled_at = 0) IS NOT (new.disabled_at = 0)
BEGIN UPDATE versions SET auth = auth + 1 WHERE id = 1; END;

-- What a token may do, at most its creator's role; tokens made before
-- roles could do everything, so they stay admin tokens.
ALTER TABLE api_tokens ADD COLUMN role TEXT NOT NULL DEFAULT 'admin';

-- Who created the token: the dashboard user (creator_id), whose current
-- role caps the token's and whose disabling stops it, or a local front
-- door (the CLI, the desktop: creator_id NULL). created_by is the name to
-- show, kept when the user is gone.
ALTER TABLE api_tokens ADD COLUMN creator_id INTEGER REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE api_tokens ADD COLUMN created_by TEXT NOT NULL DEFAULT '';
