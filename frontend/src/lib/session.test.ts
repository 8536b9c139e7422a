import { describe, expect, it } from 'vitest';
import { can, canAdminister, normalizeSession } from './session';

describe('session permissions', () => {
  it('follows the permissions the server sends', () => {
    const viewer = normalizeSession({ role: 'viewer', permissions: ['read'] });
    expect(can(viewer, 'read')).toBe(true);
    expect(can(viewer, 'change')).toBe(false);
    expect(canAdminister(viewer)).toBe(false);
    const admin = normalizeSession({ role: 'admin', permissions: ['read', 'change', 'admin'], auth: 'session' });
    expect(canAdminister(admin)).toBe(true);
  });

  it('shows no Admin page on the desktop, whose one user is an admin', () => {
    expect(canAdminister(normalizeSession({ role: 'admin', permissions: ['read', 'change', 'admin'], auth: 'desktop' }))).toBe(false);
  });

  it('a server from before roles allowed everything', () => {
    expect(can(normalizeSession({}), 'admin')).toBe(true);
  });
});
