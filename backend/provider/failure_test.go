package provider

import (
	"errors"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

func TestStatusFailure(t *testing.T) {
	tests := []struct {
		status int
		want   model.ProviderFailure
	}{
		{401, model.FailureCredentials}, {403, model.FailurePermission}, {429, model.FailureThrottled},
		{404, model.FailureNotFound}, {500, model.FailureUnreachable}, {503, model.FailureUnreachable},
		{400, model.FailureRequest}, {409, model.FailureRequest},
	}
	for _, tt := range tests {
		if got := StatusFailure(tt.status); got != tt.want {
			t.Errorf("StatusFailure(%d) = %s, want %s", tt.status, got, tt.want)
		}
	}
}

func TestFailureCarriesReasonAndCode(t *testing.T) {
	cause := errors.New("raw")
	e := Failure(model.AWS, "cost explorer", model.FailureThrottled, "ThrottlingException", "aws: cost explorer: throttled", cause)
	if e.Kind != apperr.Provider || e.Provider != "aws" || e.Details[model.FailureDetail] != model.FailureThrottled ||
		e.Details["code"] != "ThrottlingException" || e.Details["operation"] != "cost explorer" || !errors.Is(e, cause) {
		t.Fatalf("%+v", e)
	}
	if _, ok := Failure(model.OCI, "x", model.FailureRequest, "", "m", cause).Details["code"]; ok {
		t.Fatal("an empty code must not be a detail")
	}
}
