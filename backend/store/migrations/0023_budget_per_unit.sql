-- A budget may limit the cost per unit of a business metric (orders,
-- requests…) instead of the spend: per names the metric, empty for a
-- budget on spend.
ALTER TABLE budgets ADD COLUMN per TEXT NOT NULL DEFAULT '';
