import { describe, expect, it, vi } from 'vitest';
import { ApiError, errorFromJSONString } from './errors';
import { createHttpTransport } from './http';

type Call = { url: string; init: RequestInit };

function fakeFetch(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    return respond(url, init);
  });
  return { fn, calls };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected a rejection');
}

describe('http transport errors', () => {
  const tests: {
    name: string;
    status: number;
    body: unknown;
    raw?: boolean;
    type: string;
    provider?: string;
    details?: Record<string, unknown>;
    message: string | RegExp;
    notAvailable?: boolean;
  }[] = [
    {
      name: 'provider error shape',
      status: 502,
      body: { error: 'cannot reach Cost Explorer', error_type: 'ProviderError', provider: 'aws', timestamp: '2026-01-02T03:04:05Z', details: { region: 'us-east-1' } },
      type: 'ProviderError',
      provider: 'aws',
      details: { region: 'us-east-1' },
      message: 'cannot reach Cost Explorer',
    },
    {
      name: 'validation error with empty provider and details',
      status: 400,
      body: { error: 'days must be 1..365', error_type: 'ValidationError', provider: '', timestamp: '2026-01-02T03:04:05Z', details: {} },
      type: 'ValidationError',
      message: 'days must be 1..365',
    },
    {
      name: 'not implemented is "not available"',
      status: 501,
      body: { error: 'forecast is not available yet', error_type: 'NotImplementedError', provider: '', timestamp: 't', details: {} },
      type: 'NotImplementedError',
      message: 'forecast is not available yet',
      notAvailable: true,
    },
    {
      name: 'unhandled shape keeps its message',
      status: 500,
      body: { error: 'Internal server error', message: 'store: query: disk full' },
      type: 'InternalError',
      message: /^Internal server error: store: query: disk full$/,
    },
    {
      name: 'rate limited without error_type',
      status: 429,
      body: { error: 'too many requests' },
      type: 'RateLimitError',
      message: 'too many requests',
    },
    {
      name: 'non-JSON body',
      status: 502,
      body: '<html>Bad gateway</html>',
      raw: true,
      type: 'InternalError',
      message: 'Request failed (HTTP 502)',
    },
    {
      name: 'plain text body',
      status: 404,
      body: '404 page not found',
      raw: true,
      type: 'NotFoundError',
      message: '404 page not found',
    },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const { fn } = fakeFetch(() =>
        tt.raw ? new Response(tt.body as string, { status: tt.status }) : json(tt.status, tt.body),
      );
      const t = createHttpTransport({ fetch: fn, onUnauthorized: () => {} });
      const err = await rejection(t.GenerateRecommendations());
      expect(err.type).toBe(tt.type);
      expect(err.status).toBe(tt.status);
      expect(err.provider).toBe(tt.provider);
      expect(err.details).toEqual(tt.details);
      if (typeof tt.message === 'string') expect(err.message).toBe(tt.message);
      else expect(err.message).toMatch(tt.message);
      expect(err.notAvailable).toBe(Boolean(tt.notAvailable));
    });
  }

  it('401 calls onUnauthorized and rejects with AuthenticationError', async () => {
    const onUnauthorized = vi.fn();
    const { fn } = fakeFetch(() =>
      json(401, { error: 'authentication required', error_type: 'AuthenticationError', provider: '', timestamp: 't', details: {} }),
    );
    const t = createHttpTransport({ fetch: fn, onUnauthorized });
    const err = await rejection(t.AnalyzeCosts({ days: 30 }));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(err.type).toBe('AuthenticationError');
    expect(err.status).toBe(401);
  });

  it('a fetch that followed a redirect to /login counts as logged out', async () => {
    const onUnauthorized = vi.fn();
    const res = new Response('<form></form>', { status: 200 });
    Object.defineProperty(res, 'redirected', { value: true });
    Object.defineProperty(res, 'url', { value: 'http://127.0.0.1:5000/login' });
    const t = createHttpTransport({ fetch: async () => res, onUnauthorized });
    const err = await rejection(t.Metrics());
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(err.type).toBe('AuthenticationError');
  });

  it('network failure becomes NetworkError', async () => {
    const t = createHttpTransport({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const err = await rejection(t.CheckHealth());
    expect(err.type).toBe('NetworkError');
    expect(err.status).toBe(0);
  });
});

describe('http transport requests', () => {
  it('GET carries the session cookie and builds the cost query', async () => {
    const { fn, calls } = fakeFetch(() => json(200, { summary: { total_cost: 1 } }));
    const t = createHttpTransport({ fetch: fn });
    await t.AnalyzeCosts({ days: 7, metric: 'effective', provider: 'aws', tag: 'team:web' });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/api/costs?days=7&metric=effective&provider=aws&tag=team%3Aweb');
    expect(calls[0].init.method).toBe('GET');
    expect(calls[0].init.credentials).toBe('same-origin');
    expect(calls[0].init.body).toBeUndefined();
  });

  it('POST sends JSON', async () => {
    const { fn, calls } = fakeFetch(() => json(200, { report_path: '/tmp/r.html', name: 'r.html' }));
    const t = createHttpTransport({ fetch: fn });
    const res = await t.GenerateReport({ type: 'summary', format: 'pdf' });
    expect(res.report_path).toBe('/tmp/r.html');
    expect(calls[0].url).toBe('/api/reports');
    expect(calls[0].init.method).toBe('POST');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ type: 'summary', format: 'pdf' });
    expect((calls[0].init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('POST without a body sends none (optimize)', async () => {
    const { fn, calls } = fakeFetch(() => json(200, { summary: {}, recommendations: [], report_path: '' }));
    await createHttpTransport({ fetch: fn }).OptimizeAll();
    expect(calls[0].init.method).toBe('POST');
    expect(calls[0].init.body).toBeUndefined();
  });

  it('saves allocation rules as {name, rules}', async () => {
    const { fn, calls } = fakeFetch(() => json(200, { id: 1, name: 'x', rules: {}, created_at: 't' }));
    const rules = { method: 'tag_based', tags: ['team'], departments: [], projects: [] };
    await createHttpTransport({ fetch: fn }).SaveAllocationRule('x', rules);
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ name: 'x', rules });
  });

  it('a null list answer becomes an empty array', async () => {
    const { fn } = fakeFetch(() => json(200, null));
    expect(await createHttpTransport({ fetch: fn }).Alerts()).toEqual([]);
  });

  it('forecast days and report names are encoded', async () => {
    const { fn, calls } = fakeFetch(() => json(200, {}));
    const t = createHttpTransport({ fetch: fn });
    await t.ForecastCosts(60);
    expect(calls[0].url).toBe('/api/forecast?days=60');
    await t.ForecastCosts(30, { group_by: 'region', filters: { service: ['Amazon EC2'], tag: ['team:web', 'env:prod'] } });
    expect(calls[1].url).toBe('/api/forecast?days=30&group_by=region&service=Amazon+EC2&tag=team%3Aweb&tag=env%3Aprod');
    expect(t.ReportURL('a b/../c.pdf')).toBe('/api/reports/a%20b%2F..%2Fc.pdf');
  });

  it('a bad query is rejected before any request', async () => {
    const { fn } = fakeFetch(() => json(200, {}));
    const t = createHttpTransport({ fetch: fn });
    const err = await rejection(t.AnalyzeCosts({ days: 0 }));
    expect(err.type).toBe('ValidationError');
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('errorFromJSONString (Wails ErrorFormatter output)', () => {
  it('parses the shape', () => {
    const e = errorFromJSONString(JSON.stringify({ error: 'no key', error_type: 'SecurityError', provider: 'oci', details: { a: 1 } }));
    expect(e.type).toBe('SecurityError');
    expect(e.provider).toBe('oci');
    expect(e.details).toEqual({ a: 1 });
  });
  it('keeps plain text', () => {
    const e = errorFromJSONString('boom');
    expect(e.type).toBe('BaseError');
    expect(e.message).toBe('boom');
  });
});

describe('http transport administration', () => {
  it('sends each call to its route with its method and body', async () => {
    const { fn, calls } = fakeFetch((url, init) => (init.method === 'DELETE' ? json(200, { deleted: true }) : json(200, url.startsWith('/api/audit') ? [] : {})));
    const t = createHttpTransport({ fetch: fn, onUnauthorized: () => {} });
    await t.AddUser({ username: 'vic', password: 'a long password', role: 'viewer' });
    await t.UpdateUser('a b', { disabled: true });
    await t.DeleteUser('a b');
    await t.CreateToken({ name: 'ci', role: 'editor' });
    await t.RevokeToken(7);
    await t.AuditLog(50);
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'POST /api/users',
      'PATCH /api/users/a%20b',
      'DELETE /api/users/a%20b',
      'POST /api/tokens',
      'DELETE /api/tokens/7',
      'GET /api/audit?limit=50',
    ]);
    expect(JSON.parse(String(calls[1].init.body))).toEqual({ disabled: true });
    expect(JSON.parse(String(calls[3].init.body))).toEqual({ name: 'ci', role: 'editor' });
  });

  it('a refusal by role is a SecurityError with its details', async () => {
    const { fn } = fakeFetch(() =>
      json(403, { error: 'your role (viewer) may not do this: it needs admin', error_type: 'SecurityError', provider: '', timestamp: 't', details: { reason: 'forbidden', required_role: 'admin' } }),
    );
    const err = await rejection(createHttpTransport({ fetch: fn, onUnauthorized: () => {} }).ListUsers());
    expect(err.type).toBe('SecurityError');
    expect(err.details?.required_role).toBe('admin');
  });
});
