-- Commitment discounts (reservations, savings plans, committed use
-- discounts) per provider, source, billing account, commitment and day,
-- and the eligible usage no commitment covered (id ''), written with the
-- history in the same transaction (docs/data-model.md, "Commitments").
-- Amounts in nano-units of the currency; units in nano-units of the
-- commitment's unit (reserved hours); end_day 0 when the source gives no
-- end of term.
CREATE TABLE commit_facts (
    provider     TEXT    NOT NULL,
    source       TEXT    NOT NULL,
    account      TEXT    NOT NULL,
    day          INTEGER NOT NULL,
    id           TEXT    NOT NULL,
    type         TEXT    NOT NULL,
    category     TEXT    NOT NULL,
    currency     TEXT    NOT NULL,
    end_day      INTEGER NOT NULL DEFAULT 0,
    covered_list INTEGER NOT NULL DEFAULT 0,
    covered_cost INTEGER NOT NULL DEFAULT 0,
    used         INTEGER NOT NULL DEFAULT 0,
    unused       INTEGER NOT NULL DEFAULT 0,
    on_demand    INTEGER NOT NULL DEFAULT 0,
    units        INTEGER NOT NULL DEFAULT 0,
    unused_units INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (provider, source, day, account, id, type, category, currency)
) WITHOUT ROWID;
