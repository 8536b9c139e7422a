package model

// User is a dashboard user. The hash never leaves the
// backend: it is not serialised.
type User struct {
	ID           int64  `json:"id"`
	Username     string `json:"username"`
	PasswordHash string `json:"-"`
	Role         Role   `json:"role"`
	// SSOIssuer is the identity provider of a user created by single
	// sign-on (who has no password); empty for local users.
	SSOIssuer  string `json:"sso_issuer,omitempty"`
	SSOSubject string `json:"-"`
	// Disabled users cannot log in; their sessions and tokens do not work.
	Disabled  bool   `json:"disabled"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}
