-- FOCUS contract commitments (docs/commitments.md#contract-commitments).
--
-- contract_commitments holds the Contract Commitment dataset: what was
-- committed (spend, in nanos of currency, or usage, in unit) over a
-- period of days (inclusive). An imported dataset replaces its providers'
-- commitments.
CREATE TABLE contract_commitments (
    provider       TEXT NOT NULL,
    id             TEXT NOT NULL,
    contract_id    TEXT NOT NULL,
    category       TEXT NOT NULL, -- Spend or Usage
    type           TEXT NOT NULL,
    description    TEXT NOT NULL,
    cost           INTEGER,       -- NULL: a usage commitment only
    quantity       REAL,          -- NULL: a spend commitment only
    unit           TEXT NOT NULL,
    currency       TEXT NOT NULL,
    start_day      TEXT NOT NULL,
    end_day        TEXT NOT NULL,
    contract_start TEXT NOT NULL,
    contract_end   TEXT NOT NULL,
    PRIMARY KEY (provider, id)
) WITHOUT ROWID;

-- contract_applied sums the ContractApplied amounts of imported cost and
-- usage rows per commitment and month of charges (its first day): an
-- import replaces the months it holds, so importing a file again changes
-- nothing.
CREATE TABLE contract_applied (
    provider      TEXT NOT NULL,
    commitment_id TEXT NOT NULL,
    month         TEXT NOT NULL,
    cost          INTEGER NOT NULL,
    quantity      REAL NOT NULL,
    unit          TEXT NOT NULL,
    rows          INTEGER NOT NULL,
    PRIMARY KEY (provider, commitment_id, month)
) WITHOUT ROWID;
