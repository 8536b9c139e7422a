-- Change counters for every process on this data dir. A long-running
-- process (the dashboard) keeps answers and logins in memory and reads
-- this one row per request to learn that another process changed what
-- they were built from. history: cost lines and inventory (bumped by the
-- store's history writes in their own transactions); auth: a session
-- ended, a token revoked, a password changed or a user deleted (bumped
-- by the triggers below, in the same statement as the change).
CREATE TABLE versions (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    history INTEGER NOT NULL DEFAULT 0,
    auth    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO versions(id) VALUES (1);

CREATE TRIGGER versions_session_end AFTER DELETE ON sessions
BEGIN UPDATE versions SET auth = auth + 1 WHERE id = 1; END;

CREATE TRIGGER versions_token_revoke AFTER UPDATE OF revoked_at ON api_tokens
BEGIN UPDATE versions SET auth = auth + 1 WHERE id = 1; END;

CREATE TRIGGER versions_password AFTER UPDATE OF password_hash ON users
BEGIN UPDATE versions SET auth = auth + 1 WHERE id = 1; END;

CREATE TRIGGER versions_user_delete AFTER DELETE ON users
BEGIN UPDATE versions SET auth = auth + 1 WHERE id = 1; END;
