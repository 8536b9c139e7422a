-- decisions: what people decide rather than what the clouds billed
-- (recommendation and anomaly states, budgets) moves a counter of its own,
-- so a dismissed recommendation no longer makes every process recompute
-- answers that only read the history (costs, the recommenders' findings).
ALTER TABLE versions ADD COLUMN decisions INTEGER NOT NULL DEFAULT 0;
