// Admin: users (create, role, disable, reset password, delete), API tokens
// (create with a role, shown once; last use; revoke) and the audit log.
// Shown to admins of the web dashboard only; the server refuses the same
// calls to anyone else (403), whatever the UI shows.
import { useState } from 'preact/hooks';
import { api, toApiError, RoleValues, type APIToken, type ApiError, type AuditEvent, type NewToken, type Role, type User, type UserChange } from '../api/client';
import { Empty, ErrorState, Loading } from '../components/states';
import { formatDateTime } from '../lib/format';
import { useSession } from '../lib/session';
import { useApi } from '../lib/useApi';

/** useAction runs one change at a time and keeps its error. */
function useAction(after: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const run = async (fn: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
      after();
      return true;
    } catch (e) {
      setError(toApiError(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

function RoleSelect({ value, onChange, label, disabled }: { value: Role; onChange: (r: Role) => void; label: string; disabled?: boolean }) {
  return (
    <select class="input" aria-label={label} value={value} disabled={disabled} onChange={(e) => onChange((e.target as HTMLSelectElement).value as Role)}>
      {RoleValues.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
}

function Users() {
  const session = useSession();
  const users = useApi<User[]>(() => api.ListUsers(), []);
  const act = useAction(users.reload);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [resetFor, setResetFor] = useState('');
  const [newPassword, setNewPassword] = useState('');

  const create = async (e: Event) => {
    e.preventDefault();
    if (await act.run(() => api.AddUser({ username: name.trim(), password, role }))) {
      setName('');
      setPassword('');
    }
  };
  const update = (u: User, c: UserChange) => act.run(() => api.UpdateUser(u.username, c));
  const reset = async (e: Event) => {
    e.preventDefault();
    if (await act.run(() => api.UpdateUser(resetFor, { password: newPassword }))) {
      setResetFor('');
      setNewPassword('');
    }
  };
  const remove = (u: User) => {
    if (window.confirm(`Delete ${u.username}? Their sessions end and their tokens are revoked.`)) void act.run(() => api.DeleteUser(u.username));
  };

  return (
    <article class="panel" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <form class="form-row" onSubmit={create} data-testid="add-user">
        <label class="field">
          <span>Username</span>
          <input class="input" name="username" value={name} required autocomplete="off" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <label class="field">
          <span>Password (12 characters or more)</span>
          <input class="input" name="password" type="password" value={password} required minLength={12} autocomplete="new-password" onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
        </label>
        <label class="field">
          <span>Role</span>
          <RoleSelect label="Role of the new user" value={role} onChange={setRole} />
        </label>
        <button type="submit" class="btn btn-primary" disabled={act.busy}>
          Create user
        </button>
      </form>
      {act.error && <ErrorState error={act.error} what="User" />}
      {resetFor && (
        <form class="form-row" onSubmit={reset} data-testid="reset-password">
          <label class="field">
            <span>New password for {resetFor} (ends their sessions)</span>
            <input class="input" type="password" value={newPassword} required minLength={12} autocomplete="new-password" onInput={(e) => setNewPassword((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" class="btn btn-primary" disabled={act.busy}>
            Set password
          </button>
          <button type="button" class="btn" onClick={() => setResetFor('')}>
            Cancel
          </button>
        </form>
      )}
      {!users.data && users.loading && <Loading label="Loading users…" />}
      {!users.data && users.error && <ErrorState error={users.error} onRetry={users.reload} what="Users" />}
      {users.data && (
        <div class="table-scroll">
          <table data-testid="users-table">
            <caption class="sr-only">Users</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">Sign-in</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((u) => {
                const sso = !!u.sso_issuer;
                const self = u.username === session.username;
                return (
                  <tr key={u.id} data-user={u.username}>
                    <td>{u.username}</td>
                    <td>
                      <RoleSelect label={`Role of ${u.username}`} value={u.role} disabled={sso || act.busy} onChange={(r) => void update(u, { role: r })} />
                    </td>
                    <td title={sso ? 'The role comes from the identity provider at each login' : undefined}>{sso ? `single sign-on (${u.sso_issuer})` : 'password'}</td>
                    <td data-testid="user-state">{u.disabled ? 'disabled' : 'enabled'}</td>
                    <td class="actions">
                      <button type="button" class="btn btn-small" disabled={act.busy} onClick={() => void update(u, { disabled: !u.disabled })}>
                        {u.disabled ? 'Enable' : 'Disable'}
                      </button>{' '}
                      {!sso && (
                        <button type="button" class="btn btn-small" onClick={() => setResetFor(u.username)}>
                          Reset password
                        </button>
                      )}{' '}
                      <button type="button" class="btn btn-small" disabled={act.busy || self} title={self ? 'You cannot delete yourself here' : undefined} onClick={() => remove(u)}>
                        Delete
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

function Tokens() {
  const session = useSession();
  const tokens = useApi<APIToken[]>(() => api.ListTokens(), []);
  const act = useAction(tokens.reload);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [created, setCreated] = useState<NewToken | undefined>();

  const create = async (e: Event) => {
    e.preventDefault();
    setCreated(undefined);
    await act.run(async () => {
      setCreated(await api.CreateToken({ name: name.trim(), role }));
      setName('');
    });
  };
  const revoke = (t: APIToken) => {
    if (window.confirm(`Revoke token ${t.name}? Clients using it are refused at once.`)) void act.run(() => api.RevokeToken(t.id));
  };

  return (
    <article class="panel" aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      <p class="muted">Scripts send a token as Authorization: Bearer TOKEN. A token's role is at most yours ({session.role}).</p>
      <form class="form-row" onSubmit={create} data-testid="add-token">
        <label class="field">
          <span>Name</span>
          <input class="input" name="token-name" value={name} required maxLength={100} autocomplete="off" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <label class="field">
          <span>Role</span>
          <RoleSelect label="Role of the new token" value={role} onChange={setRole} />
        </label>
        <button type="submit" class="btn btn-primary" disabled={act.busy}>
          Create token
        </button>
      </form>
      {created && (
        <div class="notice" role="status">
          Token {created.name} ({created.role}) created. Copy it now: it is not shown again.
          <div>
            <code data-testid="new-token">{created.token}</code>
          </div>
        </div>
      )}
      {act.error && <ErrorState error={act.error} what="Token" />}
      {!tokens.data && tokens.loading && <Loading label="Loading tokens…" />}
      {!tokens.data && tokens.error && <ErrorState error={tokens.error} onRetry={tokens.reload} what="Tokens" />}
      {tokens.data && tokens.data.length === 0 && <Empty title="No API tokens" />}
      {tokens.data && tokens.data.length > 0 && (
        <div class="table-scroll">
          <table data-testid="tokens-table">
            <caption class="sr-only">API tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((t) => (
                <tr key={t.id} data-token={t.name}>
                  <td>{t.name}</td>
                  <td>{t.role}</td>
                  <td>{t.created_by || '—'}</td>
                  <td>{formatDateTime(t.created_at)}</td>
                  <td data-testid="token-last-used">{t.last_used ? formatDateTime(t.last_used) : 'never'}</td>
                  <td>
                    {t.revoked_at ? (
                      `revoked ${formatDateTime(t.revoked_at)}`
                    ) : (
                      <button type="button" class="btn btn-small" disabled={act.busy} onClick={() => revoke(t)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

function Audit() {
  const events = useApi<AuditEvent[]>(() => api.AuditLog(200), []);
  return (
    <article class="panel" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <p class="muted">The newest 200 events: logins, user and token changes, recommendation states.</p>
      {!events.data && events.loading && <Loading label="Loading the audit log…" />}
      {!events.data && events.error && <ErrorState error={events.error} onRetry={events.reload} what="Audit log" />}
      {events.data && events.data.length === 0 && <Empty title="No events yet" />}
      {events.data && events.data.length > 0 && (
        <div class="table-scroll">
          <table data-testid="audit-table">
            <caption class="sr-only">Audit log</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Who</th>
                <th scope="col">From</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {events.data.map((e) => (
                <tr key={e.id}>
                  <td>{formatDateTime(e.time)}</td>
                  <td>{e.event}</td>
                  <td>{e.username || '—'}</td>
                  <td>{e.client_addr || '—'}</td>
                  <td>
                    <code class="rid">{e.details && Object.keys(e.details).length > 0 ? JSON.stringify(e.details) : ''}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

export function AdminPage() {
  return (
    <section class="page" aria-labelledby="admin-title">
      <div class="page-head">
        <div>
          <h1 id="admin-title">Admin</h1>
          <p class="muted">Users and their roles (viewer reads; editor also imports, changes recommendation states, rules and reports; admin also manages users, tokens and credentials), API tokens and the audit log.</p>
        </div>
      </div>
      <Users />
      <Tokens />
      <Audit />
    </section>
  );
}
