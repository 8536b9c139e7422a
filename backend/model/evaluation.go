package model

// ModelEvaluation is evaluate_model's result: rolling-origin backtest
// errors of the forecaster on the stored history.
type ModelEvaluation struct {
	MAE        float64 `json:"mae"`
	MAPE       float64 `json:"mape"`  // percent, over non-zero days
	SMAPE      float64 `json:"smape"` // percent
	MASE       float64 `json:"mase"`  // below 1 beats repeating last week
	Coverage80 float64 `json:"coverage_80"`
	Coverage95 float64 `json:"coverage_95"`
	Origins    int     `json:"origins"`
	Horizon    int     `json:"horizon"`
}
