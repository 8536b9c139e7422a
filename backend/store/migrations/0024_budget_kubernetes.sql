-- A budget may be scoped to a Kubernetes cluster and namespace
-- (docs/kubernetes.md): its spend is those pods' shares of their nodes'
-- billed lines.
ALTER TABLE budgets ADD COLUMN cluster TEXT NOT NULL DEFAULT '';
ALTER TABLE budgets ADD COLUMN namespace TEXT NOT NULL DEFAULT '';
