-- Kubernetes cost allocation (docs/kubernetes.md, docs/decisions.md
-- "Kubernetes splits"): a split of the billed lines of nodes and volumes
-- by the pods that ran on them, beside the history, never added to it.
--
-- k8s_pods names each allocation target (a pod, or a node's idle share);
-- k8s_assets each node or volume an allocation ran on, with the cloud and
-- the resource key its provider id normalises to; k8s_asset_res the
-- billed resources (line_keys.resource_id) an asset matched. k8s_splits
-- holds, per asset, day and pod, OpenCost's (or the cloud's) cost as the
-- weight, its share of the asset's day, and est = 1 when no billed line
-- of the asset has that day: the split then keeps its own price.
-- k8s_day is the reconciled (and estimated, source '') daily cost per
-- cluster and namespace, kept by every Kubernetes import (for its
-- clusters) and every history write over days that have splits, so a
-- year by cluster or namespace reads a few rows a day. Beside the rows
-- of each cluster and namespace it holds each cluster's total (namespace
-- '*') and each namespace's total over all clusters (cluster '*'), so a
-- view without Kubernetes filters reads a row per value a day.

CREATE TABLE k8s_pods (
    id            INTEGER PRIMARY KEY,
    cluster       TEXT NOT NULL,
    namespace     TEXT NOT NULL,
    workload      TEXT NOT NULL,
    workload_kind TEXT NOT NULL,
    pod           TEXT NOT NULL,
    labels        TEXT NOT NULL, -- JSON object
    UNIQUE (cluster, namespace, workload, workload_kind, pod, labels)
);

CREATE TABLE k8s_assets (
    id          INTEGER PRIMARY KEY,
    cluster     TEXT NOT NULL,
    kind        TEXT NOT NULL, -- node | volume
    name        TEXT NOT NULL,
    provider_id TEXT NOT NULL,
    provider    TEXT NOT NULL, -- the cloud its provider id names; '' when none
    rkey        TEXT NOT NULL, -- the normalised resource key matched ('' unmatched)
    UNIQUE (cluster, kind, name, provider_id)
);

CREATE TABLE k8s_asset_res (
    asset    INTEGER NOT NULL,
    provider TEXT NOT NULL,
    rid      INTEGER NOT NULL, -- strs id of line_keys.resource_id
    PRIMARY KEY (asset, provider, rid)
) WITHOUT ROWID;
CREATE INDEX k8s_asset_res_by_rid ON k8s_asset_res(provider, rid);

CREATE TABLE k8s_splits (
    asset    INTEGER NOT NULL,
    day      INTEGER NOT NULL,
    pod      INTEGER NOT NULL,
    origin   TEXT NOT NULL,    -- opencost | eks
    weight   REAL NOT NULL,    -- the source's cost of this part
    share    REAL NOT NULL,    -- weight over the weights of the asset's day
    price    INTEGER NOT NULL, -- nanos: the source's price, counted when est
    currency TEXT NOT NULL,
    est      INTEGER NOT NULL DEFAULT 1,
    cpu_req  REAL NOT NULL DEFAULT 0, -- cores, day averages (node parts only)
    cpu_use  REAL NOT NULL DEFAULT 0,
    ram_req  REAL NOT NULL DEFAULT 0, -- bytes
    ram_use  REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (asset, day, pod)
) WITHOUT ROWID;
CREATE INDEX k8s_splits_by_pod ON k8s_splits(pod, day);

CREATE TABLE k8s_day (
    cluster   TEXT NOT NULL,
    namespace TEXT NOT NULL,
    provider  TEXT NOT NULL,
    source    TEXT NOT NULL,
    currency  TEXT NOT NULL,
    day       INTEGER NOT NULL,
    billed    INTEGER NOT NULL,
    effective INTEGER NOT NULL,
    list      INTEGER NOT NULL,
    PRIMARY KEY (cluster, day, namespace, provider, source, currency)
) WITHOUT ROWID;
CREATE INDEX k8s_day_by_namespace ON k8s_day(namespace, day);

-- What the assets were last matched against: line_keys' largest id and
-- count; a history write that changes them matches the assets again.
-- Also each live cluster's last synced day.
CREATE TABLE k8s_meta (
    k TEXT PRIMARY KEY,
    v TEXT NOT NULL
) WITHOUT ROWID;

-- Splits find their billed lines by resource alone, over every source.
CREATE INDEX line_keys_by_rid ON line_keys(resource_id, provider);
