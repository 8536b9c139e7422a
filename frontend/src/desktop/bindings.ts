// The one boundary with the code Wails generates (frontend/wailsjs): no
// other module imports it. Wails types the bindings with its own models
// (wailsjs/go/models.ts); the UI uses the API's types (api/types.gen.ts,
// generated from the same Go types by tools/apitypes), so values cross
// here by cast, and every rejection becomes an ApiError. A rejected call
// carries the JSON string app.ErrorFormatter makes, either raw or as an
// Error's message depending on the Wails version.
import * as generated from '../../wailsjs/go/app/Bindings';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import { ApiError, errorFromJSONString } from '../api/errors';
import type { CredentialChecks, CredentialField, CredentialStoreStatus } from '../api/types';
import type { RenderReport } from './firstRender';

/** Bindings is the generated bindings' module type (tests pass fakes of it). */
export type Bindings = typeof generated;

/** bindings are the generated bindings, for the desktop transport. */
export const bindings: Bindings = generated;

/** REPORTS_PREFIX is where the window's asset server serves reports. */
export const REPORTS_PREFIX = '/desktop/reports/';

/** bindingError turns whatever a binding rejected with into an ApiError. */
export function bindingError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (typeof e === 'string') return errorFromJSONString(e);
  if (e instanceof Error) return errorFromJSONString(e.message);
  return new ApiError(String(e), 'BaseError');
}

/** call runs one binding and rejects with an ApiError on failure. */
export async function call<T>(fn: () => Promise<unknown>): Promise<T> {
  try {
    return (await fn()) as T;
  } catch (e) {
    throw bindingError(e);
  }
}

/** desktop holds the bindings only the window has (credentials, saving reports, the first-render report). */
export const desktop = {
  credentialStoreStatus: () => call<CredentialStoreStatus>(() => generated.CredentialStoreStatus()),
  credentialFields: async (owner: string) => (await call<CredentialField[] | null>(() => generated.CredentialFields(owner))) ?? [],
  setCredential: (owner: string, name: string, value: string) => call<void>(() => generated.SetCredential(owner, name, value)),
  deleteCredential: (owner: string, name: string) => call<void>(() => generated.DeleteCredential(owner, name)),
  unlockCredentials: (passphrase: string) => call<void>(() => generated.UnlockCredentials(passphrase)),
  validateCredentials: () => call<CredentialChecks>(() => generated.ValidateCredentials()),
  saveReportAs: (name: string) => call<string>(() => generated.SaveReportAs(name)),
  firstRender: (r: RenderReport) => call<unknown>(() => generated.FirstRender(r as Parameters<Bindings['FirstRender']>[0])),
};

/** onEvent subscribes to an event the Go side emits; it returns the unsubscribe function. */
export function onEvent(name: string, fn: () => void): () => void {
  return EventsOn(name, fn);
}
