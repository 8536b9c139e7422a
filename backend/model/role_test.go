package model

import (
	"slices"
	"testing"
)

// TestRoleTable is the role → permission table of docs/api.md.
func TestRoleTable(t *testing.T) {
	tests := []struct {
		role Role
		want []Permission
	}{
		{RoleViewer, []Permission{PermRead}},
		{RoleEditor, []Permission{PermRead, PermChange}},
		{RoleAdmin, []Permission{PermRead, PermChange, PermAdmin}},
		{"", []Permission{}},
		{"root", []Permission{}},
	}
	for _, tt := range tests {
		t.Run(string(tt.role), func(t *testing.T) {
			if got := PermissionsOf(tt.role); !slices.Equal(got, tt.want) {
				t.Fatalf("PermissionsOf(%q) = %v, want %v", tt.role, got, tt.want)
			}
		})
	}
	if RoleAdmin.Can("unknown") {
		t.Fatal("an unknown permission is granted")
	}
	for _, p := range Permissions {
		if !p.MinRole().Valid() {
			t.Errorf("permission %s has no role", p)
		}
	}
}
