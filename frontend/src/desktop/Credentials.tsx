// The credentials dialog (File > Credentials): add, test and remove each
// provider's credentials. Values go straight to the OS keyring through the
// bindings; stored values are never read back into the window, only
// whether each field is set.
import { useEffect, useRef, useState } from 'preact/hooks';
import { toApiError, type ApiError } from '../api/errors';
import {
  PROVIDERS,
  type CredentialChecks,
  type CredentialField as Field,
  type CredentialStoreStatus as StoreStatus,
  type ProviderKey,
} from '../api/types';
import { providerName } from '../lib/format';
import { bindingError, desktop } from './bindings';

/** Owner is whose credentials the store keeps: a cloud or AI vendor, the mail server of scheduled reports, the https FOCUS sources. */
type Owner = ProviderKey | 'smtp' | 'focus';
const OWNERS: Owner[] = [...PROVIDERS, 'smtp', 'focus'];

const BACKEND_NAMES: Record<string, string> = {
  'secret-service': 'the Secret Service keyring (GNOME Keyring, KeePassXC)',
  kwallet: 'KWallet',
  pass: 'pass',
  keychain: 'the macOS Keychain',
  wincred: 'Windows Credential Manager',
  file: 'an encrypted file in the data directory',
};

function Passphrase({ status, onUnlocked }: { status: StoreStatus; onUnlocked: () => void }) {
  const [value, setValue] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const creating = !status.has_items;
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (creating && value !== confirm) {
      setError(toApiError(new Error('The two passphrases differ.')));
      return;
    }
    try {
      await desktop.unlockCredentials(value);
      setValue('');
      setConfirm('');
      onUnlocked();
    } catch (err) {
      setError(bindingError(err));
    }
  };
  return (
    <form class="panel" onSubmit={submit} data-testid="keyring-passphrase">
      <p>{status.message}</p>
      <div class="cred-row">
        <label for="kp">{creating ? 'New passphrase' : 'Passphrase'}</label>
        <input id="kp" ref={first} class="input" type="password" autocomplete="off" value={value} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
        <span />
        {creating && (
          <>
            <label for="kp2">Repeat it</label>
            <input id="kp2" class="input" type="password" autocomplete="off" value={confirm} onInput={(e) => setConfirm((e.target as HTMLInputElement).value)} />
            <span />
          </>
        )}
      </div>
      <p class="muted small">It stays in memory until costpilot closes; set COSTPILOT_KEYRING_PASSWORD to skip this step.</p>
      <button type="submit" class="btn btn-primary" disabled={!value}>
        {creating ? 'Set passphrase' : 'Unlock'}
      </button>
      {error && <p class="error-text">{error.message}</p>}
    </form>
  );
}

function FieldRow({ field, disabled, onChange }: { field: Field; disabled: boolean; onChange: (msg: string, err?: ApiError) => void }) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const id = `cred-${field.provider}-${field.name}`;
  const act = async (what: 'save' | 'remove') => {
    setBusy(true);
    try {
      if (what === 'save') await desktop.setCredential(field.provider, field.name, value);
      else await desktop.deleteCredential(field.provider, field.name);
      setValue('');
      onChange(what === 'save' ? `${field.label} saved.` : `${field.label} removed.`);
    } catch (err) {
      onChange('', bindingError(err));
    } finally {
      setBusy(false);
    }
  };
  const input = (e: Event) => setValue((e.target as HTMLInputElement | HTMLTextAreaElement).value);
  const placeholder = field.set ? 'stored (type to replace)' : field.optional ? 'optional' : 'not set';
  return (
    <div class="cred-row">
      <label for={id}>
        {field.label} {field.set ? <span class="pill pill-ok">stored</span> : null}
      </label>
      {field.multiline ? (
        <textarea id={id} class="input" spellcheck={false} autocomplete="off" placeholder={placeholder} value={value} onInput={input} disabled={disabled} />
      ) : field.secret ? (
        <input id={id} class="input" type="password" autocomplete="off" placeholder={placeholder} value={value} onInput={input} disabled={disabled} />
      ) : (
        <input id={id} class="input" type="text" spellcheck={false} autocomplete="off" placeholder={placeholder} value={value} onInput={input} disabled={disabled} />
      )}
      <div class="cred-actions">
        <button type="button" class="btn btn-small" disabled={disabled || busy || !value.trim()} onClick={() => act('save')}>
          Save
        </button>
        {field.set && (
          <button type="button" class="btn btn-small" disabled={disabled || busy} onClick={() => act('remove')}>
            Remove
          </button>
        )}
      </div>
      {field.help && <p class="muted small cred-help">{field.help}</p>}
    </div>
  );
}

/** CredentialsDialog is the modal for every provider's credentials. */
export function CredentialsDialog({ onClose }: { onClose: () => void }) {
  const [status, setStatus] = useState<StoreStatus | null>(null);
  const [fields, setFields] = useState<Partial<Record<Owner, Field[]>>>({});
  const [message, setMessage] = useState<{ text: string; error?: ApiError } | null>(null);
  const [checks, setChecks] = useState<{ busy: boolean; result?: CredentialChecks }>({ busy: false });

  const load = async () => {
    try {
      const st = await desktop.credentialStoreStatus();
      setStatus(st);
      const all: Partial<Record<Owner, Field[]>> = {};
      for (const p of OWNERS) all[p] = await desktop.credentialFields(p);
      setFields(all);
    } catch (err) {
      setMessage({ text: '', error: bindingError(err) });
    }
  };
  useEffect(() => {
    void load();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const test = async () => {
    setChecks({ busy: true });
    try {
      setChecks({ busy: false, result: await desktop.validateCredentials() });
    } catch (err) {
      setChecks({ busy: false });
      setMessage({ text: '', error: bindingError(err) });
    }
  };
  const changed = (text: string, error?: ApiError) => {
    setMessage({ text, error });
    void load();
  };
  const locked = status?.locked ?? false;

  return (
    <div class="desktop-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="desktop-dialog" role="dialog" aria-modal="true" aria-labelledby="cred-title" data-testid="credentials-dialog">
        <header>
          <h2 id="cred-title">Cloud credentials</h2>
          <button type="button" class="btn btn-small" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </header>
        {status && (
          <p class="muted">
            Stored in {BACKEND_NAMES[status.backend] ?? status.backend}. Values are never shown again, logged or written to costpilot's
            database. Providers with <code>source: api</code> use them; profiles, environment variables and CLI logins keep working too.
          </p>
        )}
        {status?.locked && <Passphrase status={status} onUnlocked={() => changed('Credential store unlocked.')} />}
        {PROVIDERS.map((p) => (
          <fieldset key={p} data-testid={`cred-${p}`}>
            <legend>{providerName(p)}</legend>
            {(fields[p] ?? []).map((f) => (
              <FieldRow key={f.name} field={f} disabled={locked} onChange={changed} />
            ))}
            {checks.result?.[p] && (
              <p class={checks.result[p]!.valid ? 'ok-text' : 'error-text'}>
                {checks.result[p]!.valid ? 'Connected.' : `Not connected: ${checks.result[p]!.error ?? 'unknown error'}`}
              </p>
            )}
          </fieldset>
        ))}
        <fieldset data-testid="cred-smtp">
          <legend>Report email (reports.smtp)</legend>
          {(fields.smtp ?? []).map((f) => (
            <FieldRow key={f.name} field={f} disabled={locked} onChange={changed} />
          ))}
        </fieldset>
        <fieldset data-testid="cred-focus">
          <legend>FOCUS sources (focus_sources)</legend>
          {(fields.focus ?? []).map((f) => (
            <FieldRow key={f.name} field={f} disabled={locked} onChange={changed} />
          ))}
        </fieldset>
        <p>
          <button type="button" class="btn btn-primary" onClick={test} disabled={checks.busy}>
            {checks.busy ? 'Testing…' : 'Test connections'}
          </button>{' '}
          {message?.error ? <span class="error-text">{message.error.message}</span> : message?.text && <span class="muted">{message.text}</span>}
        </p>
      </div>
    </div>
  );
}
