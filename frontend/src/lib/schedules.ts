// Words for report schedules: when one is due, what it sends where, and
// how its deliveries stand. The rules (due times, retries) are the
// server's; this only names what the API answers.
import type { DeliveryView, Frequency, PeriodKind, Schedule, ScheduleView } from '../api/types';
import { CALENDAR } from './period';

export const FREQUENCIES: Frequency[] = ['daily', 'weekly', 'monthly'];
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** SCHEDULE_PERIODS are the periods a schedule may cover (custom dates would repeat). */
export const SCHEDULE_PERIODS: { kind: Exclude<PeriodKind, 'custom'>; label: string }[] = [
  { kind: 'days', label: 'Last 30 days' },
  ...CALENDAR.map((c) => ({ kind: c.kind, label: c.label })),
];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const hh = (h: number) => `${String(h).padStart(2, '0')}:00 UTC`;

/** when says when a schedule is due: "Monthly on day 1 at 06:00 UTC". */
export function when(s: Schedule): string {
  switch (s.frequency) {
    case 'weekly':
      return `Weekly on ${cap(s.weekday ?? 'monday')} at ${hh(s.hour)}`;
    case 'monthly':
      return `Monthly on day ${s.day ?? 1} at ${hh(s.hour)}`;
    default:
      return `Daily at ${hh(s.hour)}`;
  }
}

/** periodLabel names a schedule's period kind. */
export function periodLabel(k: PeriodKind): string {
  return SCHEDULE_PERIODS.find((p) => p.kind === k)?.label ?? k;
}

/** destinations says where a schedule delivers. */
export function destinations(s: Schedule): string {
  const out: string[] = [];
  const to = s.recipients ?? [];
  if (to.length > 0) out.push(to.join(', '));
  if (s.webhook) out.push('the webhook');
  return out.join(' and ') || 'nowhere';
}

/**
 * parseRecipients splits what was typed (commas, semicolons, spaces or
 * lines) into addresses; the server checks each one.
 */
export function parseRecipients(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);
}

/** delivered says when and to whom the newest delivery arrived. */
export function delivered(d: DeliveryView | undefined): string {
  if (!d) return 'never';
  const to = d.channel === 'webhook' ? 'the webhook' : d.to || 'email';
  return `${d.finished_at ?? d.due_at} to ${to}${d.period ? ` (${d.period})` : ''}`;
}

/** health is how a schedule's status pill reads. */
export function health(v: ScheduleView): { ok: boolean | 'warn'; label: string } {
  if (v.last_error) return v.next_retry ? { ok: 'warn', label: 'Retrying' } : { ok: false, label: 'Failed' };
  if (v.last_delivered) return { ok: true, label: 'Delivered' };
  return { ok: 'warn', label: 'Not yet due' };
}

/** blankSchedule is a new schedule's form. */
export function blankSchedule(): Schedule {
  return { name: '', frequency: 'monthly', day: 1, hour: 6, type: 'summary', format: 'pdf', period: 'last_month', recipients: [], webhook: false };
}

/** forFrequency drops what another frequency left in the form. */
export function forFrequency(s: Schedule): Schedule {
  const out = { ...s };
  if (out.frequency !== 'weekly') delete out.weekday;
  else out.weekday ??= 'monday';
  if (out.frequency !== 'monthly') delete out.day;
  else out.day ??= 1;
  return out;
}
