-- Login throttling state: consecutive failures per username and per client
-- address, and the lock they earned. Kept in the database so a restart does
-- not hand an attacker a fresh allowance.
CREATE TABLE login_failures (
    scope        TEXT NOT NULL,    -- 'user' or 'addr'
    subject      TEXT NOT NULL,    -- lower-cased username or client address
    failures     INTEGER NOT NULL,
    first_at     INTEGER NOT NULL, -- unix seconds of the first failure of the run
    locked_until INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, subject)
) WITHOUT ROWID;

CREATE INDEX sessions_by_expiry ON sessions(expires_at);
CREATE INDEX audit_log_by_time ON audit_log(time);
