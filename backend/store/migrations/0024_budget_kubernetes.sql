-- Kubernetes (docs/kubernetes.md): a budget may be scoped to a cluster and
-- a namespace: its spend is those pods' shares of their nodes' billed
-- lines.
ALTER TABLE budgets ADD COLUMN cluster TEXT NOT NULL DEFAULT '';
ALTER TABLE budgets ADD COLUMN namespace TEXT NOT NULL DEFAULT '';

-- The CPU and RAM parts of a split's weight (OpenCost's cpuCost and
-- ramCost with their adjustments; 0 where the source gives none): the
-- cost of a workload's requests, for the rightsizing of requests.
ALTER TABLE k8s_splits ADD COLUMN cpu_w REAL NOT NULL DEFAULT 0;
ALTER TABLE k8s_splits ADD COLUMN ram_w REAL NOT NULL DEFAULT 0;
