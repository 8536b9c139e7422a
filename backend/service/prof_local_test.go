package service

import (
	"context"
	"os"
	"testing"
)

func TestProfLocal(t *testing.T) {
	p := os.Getenv("PROF_FILE")
	if p == "" {
		t.Skip()
	}
	s := openFresh(t, nil)
	if _, err := s.ImportFiles(context.Background(), []string{p}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
}
