package credentials

import "github.com/costpilot/costpilot/backend/model"

// catalogue lists, per provider, the secrets its live connector reads from
// the store. The names are the connectors' field constants (aws.Field*,
// azure.Field*); a test keeps them in step.
var catalogue = map[model.ProviderKey][]model.CredentialField{
	model.AWS: {
		{Name: "access_key_id", Label: "Access key ID", Help: "An IAM user's access key with read access to Cost Explorer, EC2 and CloudWatch."},
		{Name: "secret_access_key", Label: "Secret access key", Secret: true},
		{Name: "session_token", Label: "Session token", Secret: true, Optional: true, Help: "Only for temporary credentials."},
	},
	model.Azure: {
		{Name: "tenant_id", Label: "Tenant ID", Help: "A service principal with the Cost Management Reader and Reader roles."},
		{Name: "client_id", Label: "Client (application) ID"},
		{Name: "client_secret", Label: "Client secret", Secret: true},
	},
	model.GCP: {
		{Name: "credentials_json", Label: "Service account key (JSON)", Secret: true, Multiline: true,
			Help: "The key file of a service account with BigQuery read access to the billing export and Compute viewer."},
	},
	model.OpenAI: {
		{Name: "admin_key", Label: "Admin key", Secret: true,
			Help: "An organization owner's admin key (sk-admin-…), from Organization settings > Admin keys; OPENAI_ADMIN_KEY wins over it."},
	},
	model.Anthropic: {
		{Name: "admin_key", Label: "Admin API key", Secret: true,
			Help: "An Admin API key (sk-ant-admin…), which an organization admin creates in the Claude Console; ANTHROPIC_ADMIN_KEY wins over it."},
	},
	FocusSources: {
		{Name: FocusToken, Label: "FOCUS sources' bearer token", Secret: true,
			Help: "Sent to the https focus_sources of the configuration that name no token_env."},
	},
	SMTP: {
		{Name: SMTPPassword, Label: "Mail server password", Secret: true,
			Help: "The password of reports.smtp.username, for scheduled reports; COSTPILOT_SMTP_PASSWORD wins over it."},
	},
	model.OCI: {
		{Name: "private_key", Label: "API signing key (PEM)", Secret: true, Multiline: true,
			Help: "The private key whose fingerprint is oci.fingerprint in the configuration."},
		{Name: "private_key_passphrase", Label: "Key passphrase", Secret: true, Optional: true},
	},
}

// FocusSources and FocusToken name the https FOCUS sources' bearer token
// (model.FocusSources).
const (
	FocusSources model.ProviderKey = model.FocusSources
	FocusToken                     = model.FocusToken
)

// SMTP and SMTPPassword name the mail server's password (model.SMTP).
const (
	SMTP         model.ProviderKey = model.SMTP
	SMTPPassword                   = model.SMTPPassword
)

// Owners are whose credentials the store keeps: the clouds, the AI
// vendors, then SMTP and the FOCUS sources.
var Owners = append(append(append([]model.ProviderKey(nil), model.AllProviders...), model.Vendors...), SMTP, FocusSources)

// owner reports whether p keeps credentials here.
func owner(p model.ProviderKey) bool { return p.Connected() || p == SMTP || p == FocusSources }

// Fields returns the credential fields provider p can use, with Set false.
func Fields(p model.ProviderKey) []model.CredentialField {
	out := make([]model.CredentialField, 0, len(catalogue[p]))
	for _, f := range catalogue[p] {
		f.Provider = p
		out = append(out, f)
	}
	return out
}

// field returns the catalogue entry of provider p's field name.
func field(p model.ProviderKey, name string) (model.CredentialField, bool) {
	for _, f := range catalogue[p] {
		if f.Name == name {
			f.Provider = p
			return f, true
		}
	}
	return model.CredentialField{}, false
}
