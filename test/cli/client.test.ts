import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, NetworkError, buildUrl, hasNextPage } from '../../src/client/index.js';
import { refusedLocally } from '../../src/client/retry.js';
import { FakeApi, REF, page, problem } from './helpers/fake-api.js';

const TOKEN = 'fos_CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC_cccccc';
const api = new FakeApi(TOKEN);
let baseUrl = '';
const items = Array.from({ length: 7 }, (_, i) => ({ id: `r${i}` }));
let flaky = 0;

beforeAll(async () => {
  api
    .on('GET', '/v1/items', (req) => page(items, req))
    .on('GET', '/v1/fo', (req) => {
      // fulfillment-order style meta: only page, page_size, total
      const p = Number(req.query.get('page'));
      const limit = Number(req.query.get('limit'));
      return { body: { data: items.slice(p * limit, p * limit + limit), meta: { page: p, page_size: limit, total: items.length } } };
    })
    .on('GET', '/v1/busy-long', () => ({
      ...problem(429, 'rate-limited', 'Too Many Requests', 'Slow down.'),
      headers: { 'content-type': 'application/problem+json', 'retry-after': 120 },
    }))
    .on('GET', '/v1/down', () => ({ status: 503, body: 'upstream down', headers: { 'content-type': 'text/plain' } }))
    .on('POST', '/v1/down', () => ({ status: 503, body: 'upstream down', headers: { 'content-type': 'text/plain' } }))
    .on('POST', '/v1/echo', (req) => ({
      status: 201,
      body: { got: req.body, type: req.headers['content-type'], idem: req.headers['idempotency-key'] ?? null },
    }))
    .on('POST', '/v1/empty', () => ({ status: 204 }))
    .on('PATCH', '/v1/bad', () =>
      problem(400, 'validation-failed', 'Validation Failed', 'Invalid request: body.priority must be one of LOW, NORMAL.', {
        errors: [{ path: 'body.priority', message: 'must be one of LOW, NORMAL' }],
      }),
    );
  baseUrl = await api.start();
});
afterAll(() => api.stop());

const client = (opts: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) =>
  new ApiClient({ credentials: { baseUrl, apiKey: TOKEN }, retry: { baseDelayMs: 5, maxWaitMs: 3000 }, ...opts });

describe('requests', () => {
  it('joins base URL and path, drops empty query values, joins arrays with commas', () => {
    expect(buildUrl('http://h/v1', '/ops/products', { page: 0, search: '', type: ['A', 'B'], x: undefined, ok: true })).toBe(
      'http://h/v1/ops/products?page=0&type=A%2CB&ok=true',
    );
    expect(buildUrl('http://h/v1/', 'me')).toBe('http://h/v1/me');
  });

  it('sends x-access-token and JSON bodies; 204 gives undefined', async () => {
    const c = client();
    const res = await c.request('POST', '/echo', { body: { a: 1 } });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({ got: { a: 1 }, type: 'application/json', idem: null });
    expect(api.calls('/v1/echo').at(-1)?.headers['x-access-token']).toBe(TOKEN);
    expect(await c.post('/empty')).toBeUndefined();
    expect(api.calls('/v1/empty').at(-1)?.headers['content-type']).toBeUndefined();
    await c.close();
  });

  it('exposes the last rate-limit headers', async () => {
    const c = client();
    await c.get('/items', { limit: 2 });
    expect(c.lastRateLimit).toEqual({ limit: 30, remaining: 29, reset: 42, retryAfter: undefined });
    await c.close();
  });

  it('resolves lazy credentials once', async () => {
    let calls = 0;
    const c = new ApiClient({ credentials: async () => (calls++, { baseUrl, apiKey: TOKEN }) });
    await c.get('/items');
    await c.get('/items');
    expect(calls).toBe(1);
    await c.close();
  });
});

describe('errors', () => {
  it('parses problem+json into ApiError with kind, trace id and field errors', async () => {
    const err = await client()
      .patch('/bad', { priority: 'X' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 400,
      type: 'urn:fos:error:validation-failed',
      kind: 'validation-failed',
      title: 'Validation Failed',
      traceId: REF,
      errors: [{ path: 'body.priority', message: 'must be one of LOW, NORMAL' }],
    });
    expect(err.detail).toMatch(/\(support reference: 0123456789abcdef\)$/);
  });

  it('wrong key: 401 unauthorized', async () => {
    const c = new ApiClient({ credentials: { baseUrl, apiKey: 'fos_wrong' } });
    await expect(c.get('/items')).rejects.toMatchObject({ status: 401, kind: 'unauthorized' });
    await c.close();
  });

  it('non-problem error bodies still become ApiError (title from status)', async () => {
    const err = await client({ retry: { maxRetries: 0 } })
      .get('/down')
      .catch((e) => e);
    expect(err).toMatchObject({ status: 503, title: 'HTTP 503', detail: 'upstream down', kind: 'internal' });
  });

  it('connection refused becomes NetworkError', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const notices: unknown[] = [];
    const c = new ApiClient({
      credentials: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: TOKEN },
      retry: { maxRetries: 3, baseDelayMs: 1 },
      onRetry: (n) => notices.push(n),
    });
    const err = await c.get('/items').catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('ECONNREFUSED');
    // Nothing listens on this machine's port: no retry would change that (issue 22 item 5).
    expect(notices).toEqual([]);
    await c.close();
  });

  it('a refusal is final on loopback addresses only', () => {
    for (const url of [
      'http://127.0.0.1:9/v1/x',
      'http://localhost:9/v1',
      'http://[::1]:9/v1',
      'http://127.1.2.3/v1',
      'http://api.localhost/v1',
    ]) {
      expect(refusedLocally('ECONNREFUSED', url), url).toBe(true);
    }
    expect(refusedLocally('ECONNREFUSED', 'https://fos.example.com/v1')).toBe(false);
    expect(refusedLocally('ECONNREFUSED', 'http://10.0.0.5/v1')).toBe(false);
    expect(refusedLocally('ECONNRESET', 'http://127.0.0.1:9/v1')).toBe(false);
  });
});

describe('retries', () => {
  it('GET retries 429 up to maxRetries, waiting what retry-after asks', async () => {
    const notices: string[] = [];
    const c = client({ onRetry: (n) => notices.push(`${n.reason} ${n.delayMs}`) });
    api.on('GET', '/v1/busy-short', () => ({
      ...problem(429, 'rate-limited', 'Too Many Requests', 'Slow down.'),
      headers: { 'content-type': 'application/problem+json', 'retry-after': 0, 'x-ratelimit-reset': 0 },
    }));
    await expect(c.get('/busy-short')).rejects.toMatchObject({ status: 429 });
    expect(notices).toEqual(['HTTP 429 0', 'HTTP 429 0', 'HTTP 429 0']);
    expect(api.calls('/v1/busy-short')).toHaveLength(4);
    await c.close();
  });

  it('does not wait longer than maxWaitMs: a long retry-after fails at once', async () => {
    const before = api.calls('/v1/busy-long').length;
    const started = Date.now();
    await expect(client().get('/busy-long')).rejects.toMatchObject({ status: 429, kind: 'rate-limited' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(api.calls('/v1/busy-long').length - before).toBe(1);
  });

  it('GET retries 503 with backoff; POST without an idempotency key does not', async () => {
    const before = api.calls('/v1/down', 'GET').length;
    await expect(client({ retry: { maxRetries: 2, baseDelayMs: 1 } }).get('/down')).rejects.toMatchObject({ status: 503 });
    expect(api.calls('/v1/down', 'GET').length - before).toBe(3);

    const postsBefore = api.calls('/v1/down', 'POST').length;
    await expect(client().post('/down', { a: 1 })).rejects.toMatchObject({ status: 503 });
    expect(api.calls('/v1/down', 'POST').length - postsBefore).toBe(1);

    await expect(
      client({ retry: { maxRetries: 2, baseDelayMs: 1 } }).post('/down', { a: 1 }, { idempotencyKey: 'k-1' }),
    ).rejects.toMatchObject({ status: 503 });
    const posts = api.calls('/v1/down', 'POST').slice(postsBefore + 1);
    expect(posts).toHaveLength(3);
    expect(posts.every((p) => p.headers['idempotency-key'] === 'k-1')).toBe(true);
  });

  it('429 then success within the bound', async () => {
    flaky = 0;
    api.on('GET', '/v1/busy-then-ok', () =>
      ++flaky >= 2
        ? { body: { ok: true } }
        : {
            ...problem(429, 'rate-limited', 'Too Many Requests', 'Slow down.'),
            headers: { 'content-type': 'application/problem+json', 'retry-after': 0.05 },
          },
    );
    expect(await client().get('/busy-then-ok')).toEqual({ ok: true });
  });

  it('a write refused with 429 is retried too (a refused request did nothing), but not a 503 without an idempotency key', async () => {
    flaky = 0;
    api.on('POST', '/v1/write-busy', () =>
      ++flaky >= 2
        ? { status: 201, body: { ok: true } }
        : {
            ...problem(429, 'rate-limited', 'Too Many Requests', 'Slow down.'),
            headers: { 'content-type': 'application/problem+json', 'retry-after': 0.05 },
          },
    );
    expect(await client().post('/write-busy', { a: 1 })).toEqual({ ok: true });
    expect(api.calls('/v1/write-busy')).toHaveLength(2);
    api.on('POST', '/v1/write-503', () => problem(503, 'unavailable', 'Service Unavailable', 'Draining.'));
    await expect(client().post('/write-503', { a: 1 })).rejects.toMatchObject({ status: 503 });
    expect(api.calls('/v1/write-503')).toHaveLength(1);
  });
});

describe('pagination', () => {
  it('walks page=0,1,… while has_next_page, yielding records one by one', async () => {
    const c = client();
    const before = api.calls('/v1/items').length;
    const pages: number[] = [];
    const got: unknown[] = [];
    for await (const r of c.paginate('/items', { search: 'x' }, { pageSize: 3, onPage: (p) => pages.push(p.page) })) got.push(r);
    expect(got).toEqual(items);
    expect(pages).toEqual([0, 1, 2]);
    const calls = api.calls('/v1/items').slice(before);
    expect(calls.map((r) => [r.query.get('page'), r.query.get('limit'), r.query.get('search')])).toEqual([
      ['0', '3', 'x'],
      ['1', '3', 'x'],
      ['2', '3', 'x'],
    ]);
    await c.close();
  });

  it('follows meta.next_cursor (keyset) once the server gives one: cursor and limit, no page', async () => {
    const { paginate } = await import('../../src/client/paginate.js');
    const queries: Record<string, unknown>[] = [];
    const pages = [['a', 'b'], ['c', 'd'], ['e']];
    const fetchPage = async (q: Record<string, unknown>) => {
      queries.push(q);
      const i = queries.length - 1;
      return { data: pages[i], meta: { page: 0, has_next_page: i < 2, next_cursor: i < 2 ? `c${i + 1}` : null } };
    };
    const got: string[] = [];
    for await (const r of paginate<string>(fetchPage as never, { status: 'OPEN' }, { pageSize: 2 })) got.push(r);
    expect(got).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(queries).toEqual([
      { status: 'OPEN', page: 0, limit: 2 },
      { status: 'OPEN', page: undefined, cursor: 'c1', limit: 2 },
      { status: 'OPEN', page: undefined, cursor: 'c2', limit: 2 },
    ]);
  });

  it('falls back to total when has_next_page is absent', async () => {
    const got: unknown[] = [];
    for await (const r of client().paginate('/fo', {}, { pageSize: 4 })) got.push(r);
    expect(got).toHaveLength(7);
    expect(hasNextPage({ page: 1, page_size: 4, total: 8 }, 1, 4)).toBe(false);
    expect(hasNextPage({}, 0, 5)).toBe(false);
  });

  it('is lazy: stopping early fetches no further pages', async () => {
    const before = api.calls('/v1/items').length;
    for await (const r of client().paginate('/items', {}, { pageSize: 2 })) {
      if (r) break;
    }
    expect(api.calls('/v1/items').length - before).toBe(1);
  });
});

describe('verbose log', () => {
  it('logs > METHOD url and < status (ms), with the key redacted', async () => {
    const lines: string[] = [];
    const c = client({ log: (l) => lines.push(l) });
    await c.get('/items', { limit: 1 });
    expect(lines[0]).toBe(`> GET ${baseUrl}/items?limit=1`);
    expect(lines[1]).toBe('> x-access-token: fos_…cccc');
    expect(lines[2]).toMatch(/^< 200 \(\d+ ms\)$/);
    expect(lines.join('\n')).not.toContain(TOKEN);
    await c.close();
  });
});
