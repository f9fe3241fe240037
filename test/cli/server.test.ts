// CLI commands against the REAL server (buildApp from src/server/app.ts, listening on
// 127.0.0.1 with a fresh SQLite database): the flags' query and body names must pass the
// server's strict schemas (unknown fields are rejected), and errors must map to exit codes.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { run } from '../../src/cli/main.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { convertedOrder } from '../helpers/fixtures.js';
import { runCli, tempConfigDir, type RunCliOptions } from './helpers/cli.js';

let t: TestApp;
let baseUrl = '';
let admin: Record<string, string>;

beforeAll(async () => {
  t = await testApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  // tier 4 so the suite never meets the 30/60 s default limit
  const key = await t.key({ powerRole: 'ADMIN', tier: 4 });
  admin = { FOS_BASE_URL: baseUrl, FOS_API_KEY: key.token };
});
afterAll(() => t?.close());

const fos = (args: string[], opts: RunCliOptions = {}) => runCli(args, { env: admin, ...opts });
const json = async (args: string[], opts: RunCliOptions = {}) => {
  const r = await fos(args, opts);
  expect(r.stderr, r.stderr).not.toMatch(/^error:/m);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe('login and profiles', () => {
  it('verifies the key with GET /v1/me, saves the profile, and later commands use it', async () => {
    const dir = await tempConfigDir();
    const login = await runCli(['login', '--base-url', baseUrl.replace('/v1', ''), '--with-token', '--profile', 'local'], {
      configDir: dir,
      stdin: `${t.adminToken}\n`,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/Logged in to .* as "local admin" \(ADMIN, team /);
    const me = await runCli(['api', 'GET', '/me', '--json', 'key_name,power_role'], { configDir: dir });
    expect(JSON.parse(me.stdout)).toEqual({ key_name: 'local admin', power_role: 'ADMIN' });
  });

  it("a wrong key fails login with exit 3 and the server's one-line error", async () => {
    const r = await runCli(['login', '--base-url', baseUrl, '--api-key', 'fos_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA_AAAAAA']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: Unauthorized: .+ \(support reference: [0-9a-f]{16}\)\n$/m);
  });
});

describe('products through the CLI', () => {
  it('create -> get -> update -> list (--all streams every page)', async () => {
    const created = await json([
      'products',
      'create',
      '--name',
      'Blue mug',
      '--sku',
      'CLI-MUG',
      '--weight',
      '350',
      '--weight-unit',
      'g',
      '-F',
      'config.replenishment_minimum_level=2',
      '-F',
      'is_hazmat=false',
    ]);
    expect(created).toMatchObject({
      name: 'Blue mug',
      sku: 'CLI-MUG',
      type: 'STANDARD',
      weight: 350,
      weight_unit: 'G',
      measurement_unit: 'MM',
    });
    const got = await json(['products', 'get', created.id, '--json', 'id,sku,config.replenishment_minimum_level']);
    expect(got).toEqual({ id: created.id, sku: 'CLI-MUG', config: { replenishment_minimum_level: 2 } });
    const updated = await json(['products', 'update', created.id, '--name', 'Blue mug (L)']);
    expect(updated.name).toBe('Blue mug (L)');
    await json(['products', 'create', '--name', 'Cup', '--sku', 'CLI-CUP']);
    await json(['products', 'create', '--name', 'Plate', '--sku', 'CLI-PLATE']);

    const all = await fos(['products', 'list', '--all', '--limit', '1', '--search', 'CLI-', '--format', 'ndjson']);
    expect(
      all.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).sku)
        .sort(),
    ).toEqual(['CLI-CUP', 'CLI-MUG', 'CLI-PLATE']);
    const table = await fos(['products', 'list', '--search', 'CLI-MUG'], { tty: true });
    expect(table.stdout).toMatch(
      /^ID\s+SKU\s+NAME\s+TYPE\s+AVAILABLE\s+ON_HAND\s+COMMITTED\n\S+\s+CLI-MUG\s+Blue mug \(L\)\s+STANDARD\s+0\s+0\s+0\n$/,
    );
  });

  it('every ops list filter flag is a parameter the server accepts', async () => {
    await json([
      'products',
      'list',
      '--search',
      'x',
      '--order-by',
      'updated_at',
      '--order',
      'asc',
      '--type',
      'standard,assembly',
      '--team-id',
      t.teamId,
      '--has-image',
      'false',
      '--has-barcode',
      'false',
      '--has-remote-products',
      'false',
      '--was-inspected',
      'false',
    ]);
  });

  it('validation failures from the server exit 2 with the server detail', async () => {
    const r = await fos(['products', 'create', '--name', 'x', '-F', 'no_such_field=1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: Validation Failed: Invalid request: body\.no_such_field is not a known field\. \(support reference: [0-9a-f]{16}\)\n$/,
    );
  });

  it('a missing record exits 4', async () => {
    const r = await fos(['products', 'get', '00000000-0000-7000-8000-000000000000']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: Not Found: /);
  });
});

describe('merchant family', () => {
  it('products --merchant and vendors with a merchant key', async () => {
    const m = await t.merchant();
    const env = { FOS_BASE_URL: baseUrl, FOS_API_KEY: m.token };
    const p = await json(['products', 'create', '--merchant', '--name', 'Tea', '--sku', 'M-TEA'], { env });
    expect(await json(['products', 'list', '--merchant', '--json', 'sku', '--order-by', 'created_at', '--order', 'desc'], { env })).toEqual(
      [{ sku: 'M-TEA' }],
    );
    const v = await json(['vendors', 'create', '--vendor-name', 'Acme', '--city', 'Leeds', '--product', p.id], { env });
    expect(v.products.map((x: { id: string }) => x.id)).toEqual([p.id]);
    await json(['vendors', 'update', v.id, '--contact-email', 'buyer@acme.example'], { env });
    expect(await json(['vendors', 'list', '--json', 'vendor_name,contact_email', '--order', 'asc'], { env })).toEqual([
      { vendor_name: 'Acme', contact_email: 'buyer@acme.example' },
    ]);
    const wrongFamily = await fos(['products', 'list', '--merchant']);
    expect(wrongFamily.code).toBe(3);
  });
});

describe('orders and the fulfillment lists', () => {
  it('orders list: every flag is a server parameter; priority changes', async () => {
    const { order } = await convertedOrder(t, t.adminToken, [{ sku: 'CLI-ORD-1', quantity: 1, onHand: 5 }]);
    const list = await json([
      'orders',
      'list',
      '--search',
      'Grace',
      '--status',
      'open,pending_fulfillment',
      '--payment-status',
      'paid',
      '--fulfillment-status',
      'unfulfilled',
      '--created-at-min',
      '2020-01-01',
      '--created-at-max',
      '2100-01-01',
      '--updated-at-min',
      '2020-01-01',
      '--updated-at-max',
      '2100-01-01',
      '--order-by',
      'order_number',
      '--order',
      'asc',
      '--page',
      '0',
      '--limit',
      '100',
      '--json',
      'id',
    ]);
    expect(list).toContainEqual({ id: order.id });
    const changed = await json(['orders', 'priority', order.id, 'critical', '--json', 'priority']);
    expect(changed).toEqual({ priority: 'CRITICAL' });

    const fos1 = await json(['fulfillment-orders', 'list', '--order-id', order.id, '--status', 'pending,accepted', '--json', 'id,status']);
    expect(fos1).toHaveLength(1);
    await json(['packages', 'list', '--fulfillment-order-id', fos1[0].id, '--status', 'pending']);
    await json(['charges', 'list', '--category', 'shipping', '--order', 'desc', '--order-id', order.id]);
    await json(['files', 'list', '--search', 'x', '--mimetype', 'image/*', '--min-size', '1', '--order-by', 'size', '--order', 'desc']);
    await json(['draft-orders', 'list', '--status', 'converted', '--order', 'asc']);
    const session = await json(['picking-sessions', 'create', '--name', 'Wave 1']);
    await json(['picking-sessions', 'list', '--order', 'desc']);
    await json([
      'picking-sessions',
      'orders',
      session.id,
      '--status',
      'pending',
      '--order-by',
      'created_at',
      '--order',
      'desc',
      '--limit',
      '50',
    ]);
  });

  it('draft-orders create with --line-item and address fields, then convert', async () => {
    const { merchantTeamId } = await convertedOrder(t, t.adminToken, [{ sku: 'CLI-DRAFT', quantity: 1, onHand: 9 }]);
    const draft = await json([
      'draft-orders',
      'create',
      '--merchant-team',
      merchantTeamId,
      '--line-item',
      'sku=CLI-DRAFT,quantity=2,price=12.5',
      '--payment-status',
      'paid',
      '-f',
      'shipping_address.name=Ada',
      '-f',
      'shipping_address.address1=1 Main St',
      '-f',
      'shipping_address.city=Leeds',
      '-f',
      'shipping_address.country=GB',
      '--tag',
      'cli,test',
      '--priority',
      'high',
    ]);
    expect(draft.status).toBe('OPEN');
    const order = await json(['draft-orders', 'convert', draft.id, '--json', 'status,priority']);
    expect(order).toMatchObject({ priority: 'HIGH' });
  });
});

describe('keys and roles', () => {
  it('role create -> key create (token shown once) -> roles/tier -> disable -> delete', async () => {
    const role = await json(['roles', 'create', '--name', 'cli-packer', '--permission', 'read_orders,READ_FULFILLMENTS']);
    expect(role.permissions).toEqual(['READ_FULFILLMENTS', 'READ_ORDERS']);
    const key = await fos(['keys', 'create', '--name', 'cli key', '--role', role.id, '--tier', '2']);
    expect(key.code).toBe(0);
    const created = JSON.parse(key.stdout);
    expect(created.token).toMatch(/^fos_[A-Za-z0-9]{32}_[A-Za-z0-9]{6}$/);
    expect(key.stderr).toContain('shown only once');

    const env = { FOS_BASE_URL: baseUrl, FOS_API_KEY: created.token };
    expect((await fos(['orders', 'list'], { env })).code).toBe(0);
    const denied = await fos(['products', 'list'], { env });
    expect(denied.code).toBe(3);
    expect(denied.stderr).toMatch(/^error: Forbidden: This key lacks the READ_PRODUCTS permission/);

    expect(await json(['keys', 'tier', created.id, '3', '--json', 'rate_tier'])).toEqual({ rate_tier: 3 });
    expect(await json(['keys', 'roles', created.id, '--json', 'permissions'])).toEqual({ permissions: [] });
    const refused = await fos(['keys', 'disable', created.id]);
    expect(refused.code).toBe(2);
    expect(await json(['keys', 'disable', created.id, '--yes', '--json', 'state'])).toEqual({ state: 'DISABLED' });
    expect((await fos(['orders', 'list'], { env })).code).toBe(3);
    const del = await fos(['keys', 'delete', created.id, '--yes']);
    expect(del).toMatchObject({ code: 0, stderr: `deleted key ${created.id}\n` });
    expect((await fos(['roles', 'delete', role.id, '--yes'])).code).toBe(0);
    expect((await fos(['roles', 'get', role.id])).code).toBe(4);
  });

  it('webhooks create/update/deliveries/delete', async () => {
    const hook = await fos(['webhooks', 'create', '--url', 'https://hooks.example/fos', '--event', 'package.fulfilled,order.created']);
    expect(hook.code).toBe(0);
    const created = JSON.parse(hook.stdout);
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.test).toBe(false);
    expect(await json(['webhooks', 'update', created.id, '--active', 'false', '--json', 'active'])).toEqual({ active: false });
    expect(await json(['webhooks', 'update', created.id, '--test', 'true', '--json', 'test'])).toEqual({ test: true });
    const testHook = await fos(['webhooks', 'create', '--url', 'https://hooks.example/t', '--event', '*', '--test', 'true']);
    expect(testHook.code, testHook.stderr).toBe(0);
    expect(JSON.parse(testHook.stdout).test).toBe(true);
    expect((await fos(['webhooks', 'delete', JSON.parse(testHook.stdout).id, '--yes'])).code).toBe(0);
    await json(['webhooks', 'deliveries', created.id, '--status', 'failed']);
    expect((await fos(['webhooks', 'delete', created.id, '--yes'])).code).toBe(0);
    const bad = await fos(['webhooks', 'create', '--url', 'https://x.example', '--event', 'order.exploded']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('allowed values are *, tracking.push');
  });

  it('carrier-rates create/list/delete', async () => {
    const rate = await json([
      'carrier-rates',
      'create',
      '--carrier-id',
      'ups',
      '--carrier-name',
      'UPS',
      '--service-id',
      'ground',
      '--service-name',
      'Ground',
      '--amount',
      '6.5',
      '--per-unit-weight',
      '0.002',
      '--weight-unit',
      'kg',
      '--country',
      'US,CA',
      '--estimated-days',
      '3',
    ]);
    expect(rate).toMatchObject({ weight_unit: 'KG', countries: ['US', 'CA'] });
    expect(await json(['carrier-rates', 'list', '--json', 'id'])).toContainEqual({ id: rate.id });
    expect((await fos(['carrier-rates', 'delete', rate.id, '--yes'])).code).toBe(0);
  });
});

describe('interactive on a terminal', () => {
  it("keys create asks for the name, power role and roles (the team's roles to pick from)", async () => {
    const role = await json(['roles', 'create', '--name', `packer-${Date.now()}`, '--permission', 'READ_ORDERS']);
    const offered: unknown[] = [];
    const r = await fos(['keys', 'create'], {
      tty: true,
      prompts: {
        input: async (o) => (expect(o.message).toBe('Key name:'), 'station-9'),
        select: async (o) => (offered.push(o.choices.map((c) => c.value)), 'MEMBER' as never),
        checkbox: async (o) => (offered.push(o.choices.map((c) => c.name)), [role.id] as never),
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(offered[0]).toEqual(['MEMBER', 'ADMIN']);
    expect(offered[1]).toContain(role.name);
    const keys = await json(['keys', 'list', '--all', '--json', 'id,name,power_role']);
    const created = keys.find((k: { name: string }) => k.name === 'station-9');
    expect(created).toMatchObject({ power_role: 'MEMBER' });
    const shown = await json(['keys', 'get', created.id]);
    expect(JSON.stringify(shown)).toContain(role.id);

    // the confirmation names the key; "no" leaves it alone
    const questions: string[] = [];
    const no = await fos(['keys', 'delete', created.id], {
      tty: true,
      prompts: { confirm: async (o) => (questions.push(o.message), false) },
    });
    expect(no.code).toBe(1);
    expect(questions).toEqual([`Delete key "station-9" (${created.id.slice(0, 8)}…)? This cannot be undone.`]);
    expect((await fos(['keys', 'get', created.id])).code).toBe(0);
    // scripts: no lookup, no question, --yes needed
    const script = await fos(['keys', 'delete', created.id]);
    expect(script.code).toBe(2);
    expect(script.stderr).toContain('pass --yes');
  });

  it('keys create never makes a key without permissions unasked (issue 22 item 5)', async () => {
    // A team with no custom roles: ADMIN is proposed, and a MEMBER key is made only on a yes.
    const merchant = await t.merchant();
    const env = { FOS_BASE_URL: baseUrl, FOS_API_KEY: merchant.token };
    const keyNames = async () => (await json(['keys', 'list', '--all', '--json', 'name'], { env })).map((k: { name: string }) => k.name);
    const asked: { select?: unknown; confirm?: string } = {};
    const declined = await fos(['keys', 'create', '--name', 'idle'], {
      env,
      tty: true,
      prompts: {
        select: async (o) => ((asked.select = { message: o.message, default: o.default }), 'MEMBER' as never),
        confirm: async (o) => ((asked.confirm = o.message), false),
      },
    });
    expect(declined.code).toBe(2);
    expect(declined.stderr).toMatch(/no key created: pick a role/);
    expect(asked.select).toEqual({ message: expect.stringMatching(/no custom roles yet/), default: 'ADMIN' });
    expect(asked.confirm).toMatch(/without roles has no permissions.*Create it anyway\?/);
    expect(await keyNames()).not.toContain('idle');
    const admin = await fos(['keys', 'create', '--name', 'packing', '--json', 'power_role'], {
      env,
      tty: true,
      prompts: { select: async (o) => o.default as never },
    });
    expect(admin.code, admin.stderr).toBe(0);
    expect(JSON.parse(admin.stdout)).toEqual({ power_role: 'ADMIN' });

    // Roles offered but none picked: asked again before creating.
    await json(['roles', 'create', '--name', 'viewer', '--permission', 'READ_ORDERS'], { env });
    const picked = await fos(['keys', 'create', '--name', 'empty', '--power-role', 'MEMBER'], {
      env,
      tty: true,
      prompts: { checkbox: async () => [] as never, confirm: async () => true },
    });
    expect(picked.code, picked.stderr).toBe(0);
    expect(await keyNames()).toContain('empty');

    // A script is not asked, but told before the key is made.
    const script = await fos(['keys', 'create', '--name', 'scripted', '--json', 'id'], { env });
    expect(script.code, script.stderr).toBe(0);
    expect(script.stderr).toMatch(/^warning: a MEMBER key without roles has no permissions/m);
  });

  it('keys create in a script does not ask: a missing name is a usage error', async () => {
    const r = await fos(['keys', 'create']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('name');
  });

  it("login offers fos serve's address by default and takes host:port without a scheme", async () => {
    const dir = await tempConfigDir();
    const offered: unknown[] = [];
    const hostPort = baseUrl.replace('http://', '').replace('/v1', '');
    const r = await runCli(['login'], {
      configDir: dir,
      tty: true,
      prompts: { input: async (o) => (offered.push(o.default), hostPort), password: async () => t.adminToken },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(offered).toEqual(['http://127.0.0.1:7070']);
    expect(r.stderr).toContain(`Logged in to ${baseUrl}`);
  });
});

describe('rate limit', () => {
  it('429 after the client gives up -> exit 6 with the server detail', async () => {
    const key = await t.key({ powerRole: 'ADMIN', tier: 1 });
    let reset = 60;
    for (let i = 0; i < 30; i++) {
      const res = await t.call('GET', '/v1/me', { token: key.token });
      reset = Number(res.headers['x-ratelimit-reset']);
    }
    if (reset < 3) return; // the window is about to roll over: nothing to assert reliably
    const io = testIOStreams();
    const ctx = createContext({
      io,
      env: { FOS_BASE_URL: baseUrl, FOS_API_KEY: key.token, FOS_CONFIG_DIR: await tempConfigDir() },
      retry: { maxWaitMs: 1000 },
    });
    const code = await run(['node', 'fos', 'api', 'GET', '/me'], ctx);
    expect(code).toBe(6);
    expect(io.stderrText()).toMatch(/^error: Too Many Requests: Rate limit of 30 requests per 60 seconds exceeded/);
  });
});
