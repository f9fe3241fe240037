// Fuzzing from the published OpenAPI document (issue 7): every operation of swagger.json gets
// seeded random requests — valid-looking, boundary and hostile values for its path, query and
// body — and no answer may be a 5xx; every error is problem+json with a trace id. Bounded
// (about 2,500 requests) and deterministic (a fixed seed; FOS_FUZZ_SEED to explore others).
// Runs on PostgreSQL too with FOS_TEST_DB=postgres, like the other API tests.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

const SEED = Number(process.env.FOS_FUZZ_SEED ?? 20261122);
const TOTAL = 2500;

/** mulberry32: small, seeded, good enough to pick cases. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

type Schema = Record<string, any>;
const NUMBERS = [0, -1, 1, 2.5, 2147483648, -2147483649, 9007199254740992, 9223372036854775807, 1e308, -1e308, 1e-300];
const STRINGS = [
  '',
  'a',
  ' ',
  'x'.repeat(5000),
  '\ud800',
  'a\u0000b',
  '%ZZ',
  '../../etc/passwd',
  '<script>',
  "' OR 1=1 --",
  '0196f0a1-0000-7000-8000-000000000000',
  'not-a-uuid',
  '2026-01-01T00:00:00Z',
  '1e308',
  '-1',
  '日本語',
  '😀',
  'US',
  'KG',
];

function gen(schema: Schema | undefined, rnd: () => number, depth = 0): unknown {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  if (!schema || depth > 5) return pick<unknown>([null, 1, 'x', {}, []]);
  const r = rnd();
  if (r < 0.08) return pick<unknown>([null, true, 42, 'str', [], {}, -0.5, pick(NUMBERS), pick(STRINGS)]); // type confusion
  if (schema.enum) return r < 0.9 ? pick(schema.enum) : 'NOT_AN_ENUM';
  if (schema.anyOf || schema.oneOf) return gen(pick(schema.anyOf ?? schema.oneOf), rnd, depth + 1);
  const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      if (r < 0.5) return pick(NUMBERS);
      const lo = schema.minimum ?? 0;
      const hi = Math.min(schema.maximum ?? 1000, lo + 1000);
      const v = lo + rnd() * (hi - lo);
      return type === 'integer' ? Math.round(v) : v;
    }
    case 'boolean':
      return rnd() < 0.5;
    case 'string':
      if (r < 0.5) return pick(STRINGS);
      if (schema.format === 'uuid')
        return (
          '0196f0a1-0000-7000-8000-' +
          Math.floor(rnd() * 1e12)
            .toString()
            .padStart(12, '0')
        );
      if (schema.format === 'date-time') return new Date(Math.floor(rnd() * 4e12)).toISOString();
      if (schema.format === 'uri' || schema.format === 'email') return schema.format === 'uri' ? 'https://example.com/a' : 'a@example.com';
      return (
        'v' +
        Math.floor(rnd() * 1e6)
          .toString(36)
          .slice(0, Math.max(1, schema.maxLength ?? 8))
      );
    case 'array': {
      const n = r < 0.9 ? Math.floor(rnd() * 3) : 300;
      return Array.from({ length: n }, () => gen(schema.items, rnd, depth + 1));
    }
    default: {
      const props: Record<string, Schema> = schema.properties ?? {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) {
        if ((schema.required ?? []).includes(k) ? rnd() < 0.95 : rnd() < 0.5) out[k] = gen(v, rnd, depth + 1);
      }
      if (rnd() < 0.05) out.unknown_field = 1;
      return out;
    }
  }
}

/** Percent-encodes; a lone surrogate becomes its (invalid) UTF-8 bytes, a case worth sending too. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
}, 60_000);
afterAll(() => t.close());

it('no operation of swagger.json answers 5xx, and every error is problem+json with a trace id', async () => {
  const doc = (await t.call('GET', '/v1/swagger.json')).json();
  // Works with servers "/" and "/v1" (paths relative to it) alike.
  const base = new URL(doc.servers?.[0]?.url ?? '/', 'http://x').pathname.replace(/\/$/, '');
  const ops: { method: string; path: string; op: Schema }[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) if (item[method]) ops.push({ method, path, op: item[method] });
  }
  expect(ops.length).toBeGreaterThan(50);
  const rnd = prng(SEED);
  const perOp = Math.ceil(TOTAL / ops.length);
  const failures: string[] = [];
  let sent = 0;
  for (const { method, path, op } of ops) {
    // The bootstrap key must survive to keep fuzzing authenticated operations.
    if (/\/me\b|api-keys\/\{[^}]+\}\/(rotate|disable)|\/shutdown/.test(path) && method !== 'get') continue;
    for (let i = 0; i < perOp; i++) {
      const params = (op.parameters ?? []) as Schema[];
      let url =
        base +
        path.replace(/\{([^}]+)\}/g, (_m, name) => {
          const p = params.find((x) => x.name === name && x.in === 'path');
          return enc(String(gen(p?.schema, rnd)));
        });
      const query = new URLSearchParams();
      for (const p of params.filter((x) => x.in === 'query')) {
        if (rnd() < 0.5) query.set(p.name, String(gen(p.schema, rnd)));
      }
      // A long poll (GET /webhooks/events) waits its full `wait` when nothing happens: a valid wait
      // becomes 0 (invalid ones are still sent), or 75 of the run's 90 s went to waiting.
      const wait = Number(query.get('wait') ?? NaN);
      if (Number.isInteger(wait) && wait > 0 && wait <= 25) query.set('wait', '0');
      if ([...query].length) url += `?${query}`;
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      let payload: string | undefined;
      if (bodySchema) payload = rnd() < 0.03 ? '{"truncated":' : JSON.stringify(gen(bodySchema, rnd));
      const res = await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url,
        headers: { 'x-access-token': t.adminToken, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(payload !== undefined ? { payload } : {}),
      });
      sent++;
      const where = `${method.toUpperCase()} ${url.slice(0, 120)} ${payload?.slice(0, 200) ?? ''}`;
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${where} -> ${res.body.slice(0, 200)}`);
      else if (res.statusCode >= 400) {
        const ok =
          String(res.headers['content-type']).startsWith('application/problem+json') &&
          /^[0-9a-f]{16}$/.test(String(res.headers['x-trace-id'])) &&
          res.json().trace_id === res.headers['x-trace-id'];
        if (!ok) failures.push(`not problem+json ${res.statusCode} ${where}`);
      }
    }
  }
  expect(sent).toBeGreaterThan(TOTAL * 0.8);
  expect(failures).toEqual([]);
}, 300_000);

// Issue 23 items 3, 4 and 7: every write sent with no body and no content type, with hostile
// Idempotency-Key headers, and every operation with array-form credential query parameters: no
// 5xx, problem+json every time, and a credential in the query string is always refused.
it('empty writes, hostile Idempotency-Key headers and array-form credential parameters never answer 5xx', async () => {
  const doc = (await t.call('GET', '/v1/swagger.json')).json();
  const base = new URL(doc.servers?.[0]?.url ?? '/', 'http://x').pathname.replace(/\/$/, '');
  const failures: string[] = [];
  const rnd = prng(SEED + 1);
  const KEYS = ['', ' ', 'x'.repeat(201), 'k\u00e9y', 'a,b', 'ok-key-1'];
  const CREDS = ['token[]', 'api_key[]', 'x-access-token[]', 'token%5B%5D', 'access_token[0]'];
  let sent = 0;
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    const url = base + path.replace(/\{[^}]+\}/g, '0196f0a1-0000-7000-8000-000000000000');
    for (const method of ['post', 'put', 'patch', 'delete', 'get']) {
      if (!item[method] || (/\/me\b|api-keys\/\{[^}]+\}\/(rotate|disable)|\/shutdown/.test(path) && method !== 'get')) continue;
      const requests: Parameters<typeof t.app.inject>[0][] = [
        { method: method.toUpperCase() as 'GET', url: `${url}?${CREDS[Math.floor(rnd() * CREDS.length)]}=${t.adminToken}` },
      ];
      if (method !== 'get') {
        requests.push({ method: method.toUpperCase() as 'POST', url, headers: { 'x-access-token': t.adminToken } });
        const key = KEYS[Math.floor(rnd() * KEYS.length)];
        requests.push({
          method: method.toUpperCase() as 'POST',
          url,
          headers: { 'x-access-token': t.adminToken, 'content-type': 'application/json', 'idempotency-key': key },
          payload: '{}',
        });
      }
      for (const [i, r] of requests.entries()) {
        const res = await t.app.inject(r);
        sent++;
        const where = `${r.method} ${String(r.url).slice(0, 120)}`;
        if (res.statusCode >= 500) failures.push(`${res.statusCode} ${where} -> ${res.body.slice(0, 200)}`);
        else if (i === 0 && res.statusCode !== 401) failures.push(`credential in the query string not refused: ${res.statusCode} ${where}`);
        else if (res.statusCode >= 400 && !String(res.headers['content-type']).startsWith('application/problem+json'))
          failures.push(`not problem+json ${res.statusCode} ${where}`);
      }
    }
  }
  expect(sent).toBeGreaterThan(100);
  expect(failures).toEqual([]);
}, 300_000);
