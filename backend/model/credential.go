package model

// CredentialField is one secret a provider can read from the credential
// store (the OS keyring on the desktop). It says whether a value is stored,
// never the value.
type CredentialField struct {
	Provider  ProviderKey `json:"provider"`
	Name      string      `json:"name"`
	Label     string      `json:"label"`
	Help      string      `json:"help,omitempty"`
	Secret    bool        `json:"secret"`    // mask it when typed
	Multiline bool        `json:"multiline"` // a key file's contents rather than one line
	Optional  bool        `json:"optional"`
	Set       bool        `json:"set"`
}

// CredentialStoreStatus says which keyring holds the credentials and
// whether it needs a passphrase before it can be read.
type CredentialStoreStatus struct {
	Backend string `json:"backend"` // secret-service, kwallet, pass, file, keychain, wincred, or none
	Locked  bool   `json:"locked"`  // the file backend is waiting for its passphrase
	// HasItems is true when the file backend already holds credentials, so
	// a passphrase typed now must match the one they were stored with.
	HasItems bool   `json:"has_items"`
	Message  string `json:"message,omitempty"`
}
