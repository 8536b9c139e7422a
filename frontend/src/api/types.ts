// The API's wire types. They are generated from the Go types the API
// encodes into types.gen.ts (go generate ./tools/apitypes; docs/api.md
// describes them); this module adds only what the UI derives from them.
import { ProviderKeyValues, type CredentialCheck, type ProviderKey } from './types.gen';

export * from './types.gen';

/** PROVIDERS lists the provider keys in their canonical order. */
export const PROVIDERS: readonly ProviderKey[] = ProviderKeyValues;

/** CredentialChecks is what validating credentials answers: one check per enabled provider. */
export type CredentialChecks = Partial<Record<ProviderKey, CredentialCheck>>;
