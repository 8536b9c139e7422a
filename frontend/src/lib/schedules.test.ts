import { describe, expect, it } from 'vitest';
import type { ScheduleView } from '../api/types';
import { blankSchedule, delivered, destinations, forFrequency, health, parseRecipients, when } from './schedules';

const view = (patch: Partial<ScheduleView>): ScheduleView => ({
  id: 0,
  source: 'config',
  schedule: blankSchedule(),
  next_due: '2026-07-01T06:00:00Z',
  deliveries: [],
  ...patch,
});

describe('schedules', () => {
  it('says when a schedule is due', () => {
    expect(when({ ...blankSchedule(), hour: 6 })).toBe('Monthly on day 1 at 06:00 UTC');
    expect(when({ ...blankSchedule(), frequency: 'weekly', weekday: 'friday', hour: 18 })).toBe('Weekly on Friday at 18:00 UTC');
    expect(when({ ...blankSchedule(), frequency: 'daily', hour: 0 })).toBe('Daily at 00:00 UTC');
  });

  it('reads recipients however they are separated', () => {
    expect(parseRecipients(' a@example.com, b@example.com;c@example.com\nd@example.com ')).toEqual(['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']);
    expect(parseRecipients('  ')).toEqual([]);
  });

  it('names the destinations', () => {
    expect(destinations({ ...blankSchedule(), recipients: ['a@example.com'], webhook: true })).toBe('a@example.com and the webhook');
    expect(destinations({ ...blankSchedule(), recipients: null })).toBe('nowhere');
  });

  it('keeps only the fields of the frequency', () => {
    const w = forFrequency({ ...blankSchedule(), frequency: 'weekly' });
    expect(w.weekday).toBe('monday');
    expect(w.day).toBeUndefined();
    expect(forFrequency({ ...w, frequency: 'daily' }).weekday).toBeUndefined();
  });

  it('reads a failure with a retry as retrying, and one without as failed', () => {
    expect(health(view({ last_error: 'The email failed', next_retry: '2026-07-01T06:06:00Z' }))).toEqual({ ok: 'warn', label: 'Retrying' });
    expect(health(view({ last_error: 'The email failed' }))).toEqual({ ok: false, label: 'Failed' });
    const d = { due_at: '2026-07-01T06:00:00Z', channel: 'email', state: 'delivered', attempts: 1, finished_at: '2026-07-01T06:00:05Z', to: 'a@example.com', period: 'June 2026' };
    expect(health(view({ last_delivered: d }))).toEqual({ ok: true, label: 'Delivered' });
    expect(delivered(d)).toBe('2026-07-01T06:00:05Z to a@example.com (June 2026)');
    expect(delivered(undefined)).toBe('never');
  });
});
