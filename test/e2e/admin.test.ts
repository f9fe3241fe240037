import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';
import { freshPostgresUrl, freshSqliteUrl, type FreshUrl } from '../helpers/db.js';
import { runFos, type FosRun } from '../helpers/serve-process.js';

// The server-side `fos db migrate` and `fos admin …` as an operator runs them: the built CLI
// (bin/fos.js -> dist/, so `npm run build` first), stdin closed, HOME/config/data dirs in a temp
// dir, a fresh database. Then `fos serve` on that database proves the keys they made work.
// SQLite always; PostgreSQL too with FOS_TEST_DB=postgres.

const root = packageRoot();
// Every migration of a provider, oldest first: a fresh database applies them all.
const migrationNames = (provider: string) =>
  readdirSync(path.join(root, 'prisma', 'migrations', provider), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
const bin = path.join(root, 'bin', 'fos.js');
let dir: string;
let env: NodeJS.ProcessEnv;

type Run = FosRun;
const fos = (args: string[], input?: string): Promise<Run> => runFos(args, { env, cwd: dir, input });

const noStack = (r: Run) => {
  expect(r.stderr, r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stderr, r.stderr).not.toMatch(/node:internal|\.[cm]?js:\d+:\d+/);
};

/** Runs a command that must succeed; returns its stdout parsed as JSON. */
async function ok<T = any>(args: string[]): Promise<T> {
  const r = await fos(args);
  expect(r.code, `fos ${args.join(' ')}\n${r.stderr}`).toBe(0);
  noStack(r);
  return JSON.parse(r.stdout) as T;
}

/** Runs a command that must fail with `code` and one `error: …` line on stderr, nothing on stdout. */
async function fails(args: string[], code: number, message: RegExp): Promise<string> {
  const r = await fos(args);
  expect(r.code, `fos ${args.join(' ')}\n${r.stderr}`).toBe(code);
  expect(r.stdout).toBe('');
  noStack(r);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
  return lines[0];
}

interface Server {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startServe(db: string): Promise<Server> {
  const child = spawn(process.execPath, [bin, 'serve', '--db', db, '--port', '0', '--log-level', 'warn'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fos serve did not announce its URL in 60 s.\nstderr:\n${err}`));
    }, 60_000);
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], stderr: () => err, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`fos serve exited (${code}) before listening.\nstderr:\n${err}`));
    });
  });
}

async function stop(server: Server) {
  server.child.kill('SIGTERM');
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no exit 10 s after SIGTERM')), 10_000));
  return Promise.race([server.exited, timeout]);
}

const TOKEN = /^fos_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/;
const ID = /^[0-9a-f-]{36}$/;
const servers: Server[] = [];

beforeAll(async () => {
  // The test runs the built code: refuse a dist/ older than the sources it exercises.
  for (const f of ['cli/main', 'server/cli', 'server/admin-commands', 'domain/teams/teams', 'domain/keys/keys', 'domain/keys/roles']) {
    const built = path.join(root, 'dist', `${f}.js`);
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(path.join(root, 'src', `${f}.ts`)).mtimeMs) {
      throw new Error(`dist/${f}.js is missing or older than src/${f}.ts: run \`npm run build\` first`);
    }
  }
  dir = await mkdtemp(path.join(tmpdir(), 'fos-e2e-admin-'));
  env = {
    PATH: process.env.PATH,
    HOME: path.join(dir, 'home'),
    FOS_CONFIG_DIR: path.join(dir, 'config'),
    FOS_DATA_DIR: path.join(dir, 'data'),
    XDG_CONFIG_HOME: path.join(dir, 'home', '.config'),
    XDG_DATA_HOME: path.join(dir, 'home', '.local', 'share'),
    NO_COLOR: '1',
    CI: 'true',
  };
  const card = {
    id: 'rc_std',
    name: 'Standard',
    version_id: 'v_1',
    semantic_version: '1.0.0',
    currency: 'USD',
    receiving: { rate_per_unit: 0.25 },
  };
  await writeFile(path.join(dir, 'card.json'), JSON.stringify(card));
  await writeFile(path.join(dir, 'broken.json'), '{"id": "rc_std",');
  await writeFile(path.join(dir, 'invalid.json'), JSON.stringify({ ...card, name: '' }));
});
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

function adminSuite(provider: 'sqlite' | 'postgresql', freshUrl: () => Promise<FreshUrl>) {
  // Each test runs up to a dozen server-side commands (~1 s of CPU each, two at a time).
  describe(`fos admin and fos db migrate on ${provider}`, { timeout: 120_000 }, () => {
    let fresh: FreshUrl;
    const admin = <T = any>(...args: string[]) => ok<T>(['admin', '--db', fresh.url, ...args]);
    const adminFails = (code: number, message: RegExp, ...args: string[]) => fails(['admin', '--db', fresh.url, ...args], code, message);
    const t: Record<string, string> = {}; // ids made along the way
    const tokens: Record<string, string> = {};

    beforeAll(async () => {
      fresh = await freshUrl();
    });
    afterAll(async () => {
      await fresh?.cleanup();
    });

    it('db migrate: applies the init migration on a fresh database, then nothing', async () => {
      const first = await fos(['db', 'migrate', '--db', fresh.url]);
      expect(first.code, first.stderr).toBe(0);
      const applied = JSON.parse(first.stdout).applied as string[];
      expect(applied[0]).toMatch(/^\d{14}_init$/);
      expect(applied).toEqual(migrationNames(provider));
      expect(first.stderr).toMatch(new RegExp(`Applied ${applied.length} migration`));
      const second = await fos(['db', 'migrate', '--db', fresh.url]);
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout)).toEqual({ applied: [] });
      expect(second.stderr).toMatch(/up to date/);
      noStack(first);
      noStack(second);
    });

    it('team create (kinds, measurement systems) and team list', async () => {
      const f = await admin('team', 'create', '--name', 'Leeds 3PL', '--kind', 'FULFILLER');
      expect(f).toMatchObject({ id: expect.stringMatching(ID), name: 'Leeds 3PL', kind: 'FULFILLER', measurement_system: 'METRIC' });
      const m = await admin('team', 'create', '--name', 'Acme Outdoor', '--kind', 'MERCHANT', '--measurement-system', 'IMPERIAL');
      expect(m).toMatchObject({ name: 'Acme Outdoor', kind: 'MERCHANT', measurement_system: 'IMPERIAL' });
      const m2 = await admin('team', 'create', '--name', 'Beta Goods', '--kind', 'MERCHANT', '--measurement-system', 'METRIC');
      Object.assign(t, { fulfiller: f.id, merchant: m.id, merchant2: m2.id });
      const list = await admin('team', 'list');
      expect(list.map((x: { id: string; kind: string }) => [x.id, x.kind])).toEqual([
        [f.id, 'FULFILLER'],
        [m.id, 'MERCHANT'],
        [m2.id, 'MERCHANT'],
      ]);
    });

    it('delegation create/list: with and without a rate card; bad card, swapped kinds, duplicates', async () => {
      const d1 = await admin(
        'delegation',
        'create',
        '--merchant',
        t.merchant,
        '--fulfiller',
        t.fulfiller,
        '--rate-card',
        path.join(dir, 'card.json'),
      );
      expect(d1).toMatchObject({
        id: expect.stringMatching(ID),
        merchant_team_id: t.merchant,
        fulfiller_team_id: t.fulfiller,
        active: true,
      });
      expect(d1.rate_card).toMatchObject({ id: 'rc_std', version_id: 'v_1', receiving: { rate_per_unit: 0.25 } });

      await Promise.all([
        adminFails(
          2,
          /invalid\.json/,
          'delegation',
          'create',
          '--merchant',
          t.merchant2,
          '--fulfiller',
          t.fulfiller,
          '--rate-card',
          path.join(dir, 'invalid.json'),
        ).then((line) => expect(line).toMatch(/rate_card\.name: must be a non-empty string/)),
        adminFails(
          2,
          /cannot read .*broken\.json as JSON/,
          'delegation',
          'create',
          '--merchant',
          t.merchant2,
          '--fulfiller',
          t.fulfiller,
          '--rate-card',
          path.join(dir, 'broken.json'),
        ),
        adminFails(
          2,
          /cannot read .*missing\.json/,
          'delegation',
          'create',
          '--merchant',
          t.merchant2,
          '--fulfiller',
          t.fulfiller,
          '--rate-card',
          path.join(dir, 'missing.json'),
        ),
        adminFails(2, /must name a MERCHANT team/, 'delegation', 'create', '--merchant', t.fulfiller, '--fulfiller', t.merchant2),
        adminFails(
          5,
          /already have a fulfillment delegation/,
          'delegation',
          'create',
          '--merchant',
          t.merchant,
          '--fulfiller',
          t.fulfiller,
        ),
        adminFails(4, /Team nope was not found/, 'delegation', 'create', '--merchant', 'nope', '--fulfiller', t.fulfiller),
      ]);

      const d2 = await admin('delegation', 'create', '--merchant', t.merchant2, '--fulfiller', t.fulfiller);
      expect(d2).toMatchObject({ merchant_team_id: t.merchant2, fulfiller_team_id: t.fulfiller, rate_card: null });
      // Nothing was written by the failed attempts.
      expect((await admin('delegation', 'list')).map((d: { id: string }) => d.id)).toEqual([d1.id, d2.id]);
      expect((await admin('delegation', 'list', '--team', t.merchant2)).map((d: { id: string }) => d.id)).toEqual([d2.id]);
    });

    it('warehouse and location-type create/list', async () => {
      const w = await admin(
        'warehouse',
        'create',
        '--team',
        t.fulfiller,
        '--name',
        'Leeds DC',
        '--country',
        'GB',
        '--city',
        'Leeds',
        '--zip',
        'LS1',
      );
      expect(w).toMatchObject({
        id: expect.stringMatching(ID),
        team_id: t.fulfiller,
        name: 'Leeds DC',
        country: 'GB',
        city: 'Leeds',
        zip: 'LS1',
        state: null,
        label_format: 'PDF',
      });
      expect(await admin('warehouse', 'label-format', w.id, 'zpl')).toMatchObject({ id: w.id, label_format: 'ZPL' });
      await adminFails(2, /label_format: must be one of PDF, ZPL/, 'warehouse', 'label-format', w.id, 'EPL');
      const lt = await admin('location-type', 'create', '--team', t.fulfiller, '--name', 'Pallet');
      expect(lt).toMatchObject({ id: expect.stringMatching(ID), team_id: t.fulfiller, name: 'Pallet' });
      await Promise.all([
        adminFails(2, /must name a FULFILLER team/, 'warehouse', 'create', '--team', t.merchant, '--name', 'Shed'),
        adminFails(2, /name: must not be empty/, 'location-type', 'create', '--team', t.fulfiller, '--name', ' '),
      ]);
      expect(await admin('warehouse', 'list', '--team', t.fulfiller)).toEqual([expect.objectContaining({ id: w.id })]);
      expect(await admin('warehouse', 'list')).toHaveLength(1);
      expect(await admin('location-type', 'list')).toEqual([expect.objectContaining({ id: lt.id, name: 'Pallet' })]);
    });

    it('role create: permissions are checked, names are unique per team', async () => {
      const role = await admin(
        'role',
        'create',
        '--team',
        t.fulfiller,
        '--name',
        'packer',
        '--permission',
        'READ_ORDERS',
        'WRITE_FULFILLMENTS',
      );
      expect(role).toMatchObject({ id: expect.stringMatching(ID), name: 'packer', permissions: ['READ_ORDERS', 'WRITE_FULFILLMENTS'] });
      await Promise.all([
        adminFails(
          2,
          /unknown permission FLY_TO_MOON; allowed: READ_PRODUCTS, .*MANAGE_API_KEYS/,
          'role',
          'create',
          '--team',
          t.fulfiller,
          '--name',
          'pilot',
          '--permission',
          'READ_ORDERS',
          'FLY_TO_MOON',
        ),
        adminFails(
          5,
          /role named "packer" already exists/,
          'role',
          'create',
          '--team',
          t.fulfiller,
          '--name',
          'packer',
          '--permission',
          'READ_ORDERS',
        ),
      ]);
    });

    it('key create/list/tier/disable: the token is printed once and never listed', async () => {
      const adminKey = await admin('key', 'create', '--team', t.fulfiller, '--name', 'ci', '--power-role', 'ADMIN', '--tier', '2');
      expect(adminKey).toMatchObject({
        id: expect.stringMatching(ID),
        name: 'ci',
        power_role: 'ADMIN',
        state: 'ACTIVE',
        rate_tier: 2,
        team_id: t.fulfiller,
        roles: [],
      });
      expect(adminKey.token).toMatch(TOKEN);
      expect(adminKey.token_hint).toBe(`fos_…${adminKey.token.slice(-4)}`);
      const member = await admin('key', 'create', '--team', t.fulfiller, '--name', 'packer-1', '--role', 'packer');
      expect(member).toMatchObject({
        power_role: 'MEMBER',
        rate_tier: 1,
        roles: [{ name: 'packer' }],
        permissions: ['READ_ORDERS', 'WRITE_FULFILLMENTS'],
      });
      expect(member.token).toMatch(TOKEN);
      const doomed = await admin('key', 'create', '--team', t.fulfiller, '--name', 'leaked');
      const merchantKey = await admin('key', 'create', '--team', t.merchant, '--name', 'shop', '--power-role', 'ADMIN');
      Object.assign(t, { adminKey: adminKey.id, member: member.id, doomed: doomed.id });
      Object.assign(tokens, { adminKey: adminKey.token, member: member.token, doomed: doomed.token, merchant: merchantKey.token });

      const tiered = await admin('key', 'tier', adminKey.id, '3');
      expect(tiered).toMatchObject({ id: adminKey.id, rate_tier: 3 });
      expect(tiered).not.toHaveProperty('token');
      const disabled = await admin('key', 'disable', doomed.id);
      expect(disabled).toMatchObject({ id: doomed.id, state: 'DISABLED', disabled_at: expect.any(String) });

      const r = await fos(['admin', '--db', fresh.url, 'key', 'list', '--team', t.fulfiller]);
      expect(r.code).toBe(0);
      const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
      expect(list.map((k) => [k.name, k.state, k.rate_tier])).toEqual([
        ['ci', 'ACTIVE', 3],
        ['packer-1', 'ACTIVE', 1],
        ['leaked', 'DISABLED', 1],
      ]);
      for (const k of list) expect(Object.keys(k)).not.toContain('token');
      for (const token of [adminKey.token, member.token, doomed.token]) {
        expect(r.stdout).not.toContain(token);
        expect(r.stdout).not.toContain(token.slice(0, 20));
      }
    });

    it('user create (--password-stdin)/list/add-to-team/disable: the password is never printed', async () => {
      const args = (email: string) => [
        'admin',
        '--db',
        fresh.url,
        'user',
        'create',
        '--email',
        email,
        '--name',
        'Pat',
        '--team',
        t.fulfiller,
        '--role',
        'packer',
        '--password-stdin',
      ];
      const r = await fos(args('Pat@Example.com'), 'a long enough password\n');
      expect(r.code, r.stderr).toBe(0);
      const pat = JSON.parse(r.stdout);
      expect(pat).toMatchObject({ email: 'pat@example.com', display_name: 'Pat', state: 'ACTIVE', created_by: 'admin-cli' });
      expect(pat.memberships).toEqual([
        expect.objectContaining({ team_id: t.fulfiller, power_role: 'MEMBER', permissions: ['READ_ORDERS', 'WRITE_FULFILLMENTS'] }),
      ]);
      expect(r.stdout).not.toContain('a long enough password');
      const short = await fos(args('short@example.com'), 'short\n');
      expect(short.code).toBe(2);
      expect(short.stderr).toMatch(/password.*at least 10/);
      const noStdin = await fos(args('x@example.com').filter((a) => a !== '--password-stdin'));
      expect(noStdin.code).toBe(2);
      expect(noStdin.stderr).toMatch(/--password-stdin/);

      const moved = await admin('user', 'add-to-team', 'pat@example.com', '--team', t.merchant, '--power-role', 'ADMIN');
      expect(moved.memberships.map((m: { team_id: string; power_role: string }) => [m.team_id, m.power_role])).toEqual([
        [t.fulfiller, 'MEMBER'],
        [t.merchant, 'ADMIN'],
      ]);
      const listed = await admin('user', 'list', '--team', t.merchant);
      expect(listed.map((u: { email: string }) => u.email)).toEqual(['pat@example.com']);
      expect(JSON.stringify(listed)).not.toMatch(/scrypt|password/);
      const disabled = await admin('user', 'disable', pat.id);
      expect(disabled).toMatchObject({ state: 'DISABLED', disabled_at: expect.any(String) });
      await adminFails(4, /User ghost@example.com was not found/, 'user', 'disable', 'ghost@example.com');
    });

    it('unknown team, key and role ids exit 4; bad values exit 2', async () => {
      await Promise.all([
        adminFails(4, /Team nope was not found/, 'key', 'list', '--team', 'nope'),
        adminFails(4, /Team nope was not found/, 'key', 'create', '--team', 'nope', '--name', 'x'),
        adminFails(4, /Team nope was not found/, 'warehouse', 'create', '--team', 'nope', '--name', 'x'),
        adminFails(4, /Team nope was not found/, 'warehouse', 'list', '--team', 'nope'),
        adminFails(4, /Team nope was not found/, 'role', 'create', '--team', 'nope', '--name', 'x', '--permission', 'READ_ORDERS'),
        adminFails(4, /API key nope was not found/, 'key', 'tier', 'nope', '3'),
        adminFails(4, /API key nope was not found/, 'key', 'disable', 'nope'),
        adminFails(4, /Role ghost was not found/, 'key', 'create', '--team', t.fulfiller, '--name', 'x', '--role', 'ghost'),
      ]);
      await Promise.all([
        adminFails(2, /required option '--name <name>' not specified/, 'team', 'create', '--kind', 'MERCHANT'),
        adminFails(
          2,
          /'--kind <kind>' argument 'SUPPLIER' is invalid.*FULFILLER, MERCHANT/,
          'team',
          'create',
          '--name',
          'x',
          '--kind',
          'SUPPLIER',
        ),
        adminFails(2, /name: must not be empty/, 'team', 'create', '--name', '', '--kind', 'MERCHANT'),
        adminFails(2, /argument 'tier'.*Allowed choices are 1, 2, 3, 4/, 'key', 'tier', t.member, '9'),
        adminFails(2, /'--tier <tier>' argument '0' is invalid/, 'key', 'create', '--team', t.fulfiller, '--name', 'x', '--tier', '0'),
      ]);
      // None of the failures wrote anything.
      expect(await admin('team', 'list')).toHaveLength(3);
      expect(await admin('key', 'list', '--team', t.fulfiller)).toHaveLength(3);
    });

    it('fos serve on the same database: the keys authenticate with their roles, state and tier', async () => {
      const server = await startServe(fresh.url);
      servers.push(server);
      expect(server.stderr()).not.toMatch(/API key \(shown once\)/); // teams exist: no bootstrap
      const get = (p: string, token?: string) => fetch(`${server.url}${p}`, { headers: token ? { 'x-access-token': token } : {} });

      const me = await get('/me', tokens.member);
      expect(me.status).toBe(200);
      expect(me.headers.get('x-ratelimit-limit')).toBe('30');
      expect(await me.json()).toEqual({
        key_id: t.member,
        key_name: 'packer-1',
        team_id: t.fulfiller,
        team_name: 'Leeds 3PL',
        team_kind: 'FULFILLER',
        measurement_system: 'METRIC',
        power_role: 'MEMBER',
        permissions: ['READ_ORDERS', 'WRITE_FULFILLMENTS'],
        rate_tier: 1,
      });

      const disabled = await get('/me', tokens.doomed);
      expect(disabled.status).toBe(401);
      expect(disabled.headers.get('content-type')).toMatch(/^application\/problem\+json/);

      const tier3 = await get('/me', tokens.adminKey);
      expect(tier3.status).toBe(200);
      expect(tier3.headers.get('x-ratelimit-limit')).toBe('600');
      expect(await tier3.json()).toMatchObject({ power_role: 'ADMIN', rate_tier: 3 });

      const products = await get('/merchant/products', tokens.merchant);
      expect(products.status).toBe(200);
      expect(await products.json()).toMatchObject({ data: [] });
      const merchantMe = await (await get('/me', tokens.merchant)).json();
      expect(merchantMe).toMatchObject({ team_id: t.merchant, team_kind: 'MERCHANT', measurement_system: 'IMPERIAL' });
      // The family check: a fulfiller key does not reach the merchant paths.
      expect((await get('/merchant/products', tokens.adminKey)).status).toBe(403);

      expect(await stop(server)).toBe(0);
    });
  });
}

adminSuite('sqlite', freshSqliteUrl);
// PostgreSQL needs a server (FOS_TEST_PG_URL): only with FOS_TEST_DB=postgres, so `npm test` stays SQLite-only.
if (process.env.FOS_TEST_DB === 'postgres') adminSuite('postgresql', freshPostgresUrl);

describe('fos db migrate without --db', () => {
  it('uses $FOS_DATA_DIR/fos.db', async () => {
    const out = await ok(['db', 'migrate']);
    expect(out.applied).toEqual(migrationNames('sqlite'));
    expect(existsSync(path.join(env.FOS_DATA_DIR!, 'fos.db'))).toBe(true);
  });
});
