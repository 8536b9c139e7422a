// Scheduled reports on the Reports page: every schedule (the config
// file's read-only, marked "from config"), and a form for admins to make,
// change and delete the others. How deliveries went is on the Status page.
import { useState } from 'preact/hooks';
import { api, toApiError, type ApiError, type Frequency, type PeriodKind, type ReportFormat, type ReportType, type Schedule, type ScheduleView } from '../api/client';
import { Empty, ErrorState, Loading } from './states';
import { formatDateTime, titleCase } from '../lib/format';
import { blankSchedule, destinations, forFrequency, FREQUENCIES, parseRecipients, periodLabel, SCHEDULE_PERIODS, WEEKDAYS, when } from '../lib/schedules';
import { can, notAllowed, useSession } from '../lib/session';
import { useApi } from '../lib/useApi';

const TYPES: ReportType[] = ['comprehensive', 'summary', 'recommendations'];
const FORMATS: ReportFormat[] = ['pdf', 'html', 'json'];

function ScheduleForm({ id, initial, onSaved, onCancel }: { id: number; initial: Schedule; onSaved: () => void; onCancel: () => void }) {
  const [s, setS] = useState<Schedule>(initial);
  const [to, setTo] = useState((initial.recipients ?? []).join(', '));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const set = (patch: Partial<Schedule>) => setS(forFrequency({ ...s, ...patch }));
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.SaveSchedule(id, { ...s, recipients: parseRecipients(to) });
      onSaved();
    } catch (err) {
      setError(toApiError(err));
    } finally {
      setBusy(false);
    }
  };
  const sel = <T extends string>(label: string, value: T, options: { value: T; label: string }[], on: (v: T) => void, testId?: string) => (
    <label class="field">
      <span>{label}</span>
      <select class="input" value={value} data-testid={testId} onChange={(e) => on((e.target as HTMLSelectElement).value as T)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <form class="panel" onSubmit={submit} data-testid="schedule-form" aria-labelledby="schedule-form-title">
      <h3 id="schedule-form-title">{id ? `Change ${initial.name}` : 'New schedule'}</h3>
      <div class="form-grid">
        <label class="field">
          <span>Name</span>
          <input class="input" value={s.name} required maxLength={100} data-testid="schedule-name" onInput={(e) => set({ name: (e.target as HTMLInputElement).value })} />
        </label>
        {sel<Frequency>('Every', s.frequency, FREQUENCIES.map((f) => ({ value: f, label: titleCase(f) })), (v) => set({ frequency: v }), 'schedule-frequency')}
        {s.frequency === 'weekly' &&
          sel<string>('On', s.weekday ?? 'monday', WEEKDAYS.map((d) => ({ value: d, label: titleCase(d) })), (v) => set({ weekday: v }))}
        {s.frequency === 'monthly' && (
          <label class="field">
            <span>On day</span>
            <input class="input" type="number" min={1} max={28} value={s.day ?? 1} onInput={(e) => set({ day: Number((e.target as HTMLInputElement).value) })} />
          </label>
        )}
        <label class="field">
          <span>At hour (UTC)</span>
          <input class="input" type="number" min={0} max={23} value={s.hour} onInput={(e) => set({ hour: Number((e.target as HTMLInputElement).value) })} />
        </label>
        {sel<ReportType>('Report', s.type, TYPES.map((t) => ({ value: t, label: titleCase(t) })), (v) => set({ type: v }))}
        {sel<ReportFormat>('Format', s.format, FORMATS.map((f) => ({ value: f, label: f.toUpperCase() })), (v) => set({ format: v }))}
        {sel<PeriodKind>('Costs of', s.period, SCHEDULE_PERIODS.map((p) => ({ value: p.kind, label: p.label })), (v) => set({ period: v }))}
        <label class="field">
          <span>Email to (comma-separated)</span>
          <input class="input" value={to} placeholder="finops@example.com" data-testid="schedule-recipients" onInput={(e) => setTo((e.target as HTMLInputElement).value)} />
        </label>
        <label class="field">
          <input type="checkbox" checked={s.webhook} onChange={(e) => set({ webhook: (e.target as HTMLInputElement).checked })} />
          <span>Post the headline numbers to the webhook</span>
        </label>
      </div>
      {error && <ErrorState error={error} what="The schedule" />}
      <div class="form-row">
        <button type="submit" class="btn btn-primary" disabled={busy} data-testid="schedule-save">
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" class="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function Schedules() {
  const session = useSession();
  const mayAdmin = can(session, 'admin');
  const why = mayAdmin ? undefined : notAllowed(session, 'admin');
  const list = useApi<ScheduleView[]>(() => api.ListSchedules(), []);
  const [editing, setEditing] = useState<{ id: number; s: Schedule } | null>(null);
  const [error, setError] = useState<ApiError | undefined>();
  const remove = async (v: ScheduleView) => {
    if (!window.confirm(`Delete the schedule ${v.schedule.name}?`)) return;
    try {
      await api.DeleteSchedule(v.id);
      list.reload();
    } catch (e) {
      setError(toApiError(e));
    }
  };
  return (
    <article class="panel" aria-labelledby="schedules-title" data-testid="schedules">
      <div class="page-head">
        <div>
          <h2 id="schedules-title">Scheduled reports</h2>
          <p class="muted small">Made and delivered by email and/or to the webhook at the hour given, once per period; failures are retried. Deliveries show on the Status page.</p>
        </div>
        <div class="controls">
          <button type="button" class="btn" onClick={() => setEditing({ id: 0, s: blankSchedule() })} disabled={!mayAdmin} title={why} data-testid="schedule-new">
            New schedule
          </button>
        </div>
      </div>
      {editing && (
        <ScheduleForm
          id={editing.id}
          initial={editing.s}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      {error && <ErrorState error={error} what="Deleting the schedule" />}
      {!list.data && list.loading && <Loading label="Loading schedules…" />}
      {!list.data && list.error && <ErrorState error={list.error} onRetry={list.reload} what="Schedules" />}
      {list.data && list.data.length === 0 && <Empty title="No scheduled reports">{mayAdmin ? 'Add one with New schedule, or in reports.schedules of the config file.' : 'An admin can add one.'}</Empty>}
      {list.data && list.data.length > 0 && (
        <div class="table-scroll">
          <table data-testid="schedules-table">
            <caption class="sr-only">Scheduled reports</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">When</th>
                <th scope="col">Report</th>
                <th scope="col">To</th>
                <th scope="col">Next</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((v) => (
                <tr key={`${v.source}:${v.id}:${v.schedule.name}`}>
                  <td>
                    <strong>{v.schedule.name}</strong>
                    {v.source === 'config' && <span class="muted small block">from config</span>}
                  </td>
                  <td>{when(v.schedule)}</td>
                  <td>
                    {titleCase(v.schedule.type)} · {v.schedule.format.toUpperCase()} · {periodLabel(v.schedule.period)}
                  </td>
                  <td>{destinations(v.schedule)}</td>
                  <td>{formatDateTime(v.next_due)}</td>
                  <td>
                    {v.source !== 'config' && (
                      <span class="controls">
                        <button type="button" class="btn btn-small" disabled={!mayAdmin} title={why} onClick={() => setEditing({ id: v.id, s: v.schedule })}>
                          Edit
                        </button>
                        <button type="button" class="btn btn-small" disabled={!mayAdmin} title={why} onClick={() => void remove(v)}>
                          Delete
                        </button>
                      </span>
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
