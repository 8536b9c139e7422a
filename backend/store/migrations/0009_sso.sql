-- Single sign-on (dashboard.auth.oidc) and the users' roles.

-- What a user may do: viewer, editor or admin. Every user could do
-- everything before, so existing and local users are admins; users of
-- single sign-on get theirs from the identity provider at every login.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'admin';

-- The OpenID Connect issuer and subject of a user created by single
-- sign-on, empty for local users. Such users have no password
-- (password_hash is empty) and cannot log in with the form.
ALTER TABLE users ADD COLUMN sso_issuer TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN sso_subject TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX users_by_sso ON users(sso_issuer, sso_subject) WHERE sso_subject <> '';

-- A changed role must reach every process at once, as a password does.
CREATE TRIGGER versions_role AFTER UPDATE OF role ON users WHEN old.role IS NOT new.role
BEGIN UPDATE versions SET auth = auth + 1 WHERE id = 1; END;

-- Logins sent to the identity provider and not yet back: the hash of the
-- state sent with each, and the nonce and PKCE verifier its answer is
-- checked with. A row is used once and lives a few minutes; any process on
-- the data dir can finish a login another began.
CREATE TABLE sso_logins (
    state_hash TEXT PRIMARY KEY, -- SHA-256 of the state
    nonce      TEXT NOT NULL,
    verifier   TEXT NOT NULL,
    created_at INTEGER NOT NULL, -- unix seconds
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sso_logins_by_expiry ON sso_logins(expires_at);
