package model

// Versions are the data dir's change counters (the store's versions table): History
// grows with every write of cost history or inventory, Auth whenever a
// login or token may have stopped being valid, Decisions with what people
// decide (recommendation and anomaly states, budgets). Processes compare
// them to know when what they keep in memory is stale.
type Versions struct {
	History   int64
	Auth      int64
	Decisions int64
}
