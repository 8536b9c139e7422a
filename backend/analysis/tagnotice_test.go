package analysis

import (
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestTagFilterNotices(t *testing.T) {
	known := map[string][]string{"team": {"data", "web"}, "env": {"prod"}}
	tests := []struct {
		name string
		want []TagWant
		msgs []string // one per notice, each a substring
	}{
		{"known value", []TagWant{{"team", []string{"data"}}}, nil},
		{"case of key and value", []TagWant{{"TEAM", []string{"DATA"}}}, nil},
		{"untagged asked", []TagWant{{"team", []string{model.NoValue}}}, nil},
		{"one known of several", []TagWant{{"team", []string{"nope", "web"}}}, nil},
		{"unknown value", []TagWant{{"team", []string{"dta"}}}, []string{`team=dta; team's values here: data, web.`}},
		{"unknown key", []TagWant{{"owner", []string{"x"}}}, []string{`tag key "owner"; keys here: env, team.`}},
		{"both filters wrong", []TagWant{{"owner", []string{"x"}}, {"env", []string{"dev"}}}, []string{`"owner"`, `env=dev; env's values here: prod.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TagFilterNotices(tt.want, known)
			if len(got) != len(tt.msgs) {
				t.Fatalf("got %d notices %+v, want %d", len(got), got, len(tt.msgs))
			}
			for i, n := range got {
				if n.Kind != model.NoticeUnknownTag || !strings.Contains(n.Message, tt.msgs[i]) {
					t.Errorf("notice %d = %+v, want kind %s with %q", i, n, model.NoticeUnknownTag, tt.msgs[i])
				}
			}
		})
	}
}

func TestTagFilterNoticesListsAtMostTen(t *testing.T) {
	var vs []string
	for _, c := range "abcdefghijkl" {
		vs = append(vs, string(c))
	}
	got := TagFilterNotices([]TagWant{{"team", []string{"zz"}}}, map[string][]string{"team": vs})
	if len(got) != 1 || !strings.HasSuffix(got[0].Message, "a, b, c, d, e, f, g, h, i, j and 2 more.") {
		t.Fatalf("%+v", got)
	}
}
