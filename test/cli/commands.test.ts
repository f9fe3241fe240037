// Resource commands against a tiny node:http API speaking the documented shapes. Switch these
// to the real server (test/helpers/app.ts + listen) as its routes land: see docs/cli.md.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeApi, page } from './helpers/fake-api.js';
import { runCli } from './helpers/cli.js';

const TOKEN = 'fos_EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE_eeeeee';
const api = new FakeApi(TOKEN);
let env: Record<string, string> = {};
// Ids are uuids, as the server's are: the CLI looks up anything else as a SKU, order number or name.
const P = (i: number) => `01900000-0000-7000-8000-00000000000${i}`;
const FO1 = '01900000-0000-7000-8000-0000000000f1';
const PS1 = '01900000-0000-7000-8000-0000000000a1';
const R1 = '01900000-0000-7000-8000-0000000000b1';
const R2 = '01900000-0000-7000-8000-0000000000b2';
const products = Array.from({ length: 5 }, (_, i) => ({
  id: P(i),
  sku: `SKU-${i}`,
  name: `Product ${i}`,
  type: 'STANDARD',
  available: i,
  on_hand: i + 1,
  committed: 1,
  inventory_by_warehouse: [],
}));
const echo =
  (status = 200) =>
  (req: { body: unknown }, params: Record<string, string>) => ({ status, body: { ...params, ...(req.body as object) } });

beforeAll(async () => {
  api
    .on('GET', '/v1/ops/products', (req) => page(products, req))
    .on('GET', '/v1/merchant/products', (req) => page(products.slice(0, 1), req))
    .on('GET', '/v1/ops/products/:id', ({}, { id }) => ({ body: products.find((p) => p.id === id) }))
    .on('POST', '/v1/ops/products', echo(201))
    .on('PATCH', '/v1/ops/products/:id', echo())
    .on('GET', '/v1/ops/orders/list', (req) => page([], req))
    .on('PATCH', '/v1/ops/orders/:id/priority', echo())
    .on('POST', '/v1/ops/fulfillment-orders/:id/lock', (req) => ({
      body: { success: true, ...(req.body as object), expires_at: '2026-11-22T10:30:00Z' },
    }))
    .on('POST', '/v1/ops/fulfillment-orders/:id/accept', ({}, { id }) => ({ body: { id, status: 'ACCEPTED', request_status: 'ACCEPTED' } }))
    .on('POST', '/v1/ops/packages', echo(201))
    .on('POST', '/v1/ops/packages/:id/fulfill', echo())
    .on('POST', '/v1/keys/:id/disable', () => ({ status: 204 }))
    .on('DELETE', '/v1/keys/:id', () => ({ status: 204 }))
    .on('GET', '/v1/keys/:id', ({}, { id }) => ({ body: { id, name: 'ci-runner' } }))
    .on('PUT', '/v1/keys/:id/roles', echo())
    .on('PUT', '/v1/keys/:id/tier', echo())
    .on('POST', '/v1/keys', (req) => ({
      status: 201,
      body: { id: 'k1', ...(req.body as object), token: 'fos_NEWNEWNEWNEWNEWNEWNEWNEWNEWNEWNE_newnew' },
    }))
    .on('POST', '/v1/roles', echo(201))
    .on('GET', '/v1/roles', (req) =>
      page(
        [
          { id: R1, name: 'packer' },
          { id: R2, name: 'picker' },
        ],
        req,
        10,
      ),
    )
    .on('POST', '/v1/ops/charges/storage', echo(201))
    .on('GET', '/v1/ops/picking-sessions', (req) => page([{ id: PS1, name: 'Wave 7' }], req, 10))
    .on('GET', '/v1/ops/v1/picking-sessions/:id/fulfillment-orders', (req) =>
      page([{ fulfillment_order_id: FO1, order_number: '#1', status: 'PENDING' }], req, 10),
    )
    .on('POST', '/v1/ops/draft-orders', echo(201))
    .on('GET', '/v1/me', () => ({
      body: {
        key_id: 'k0',
        key_name: 'bench key',
        team_name: 'My Warehouse',
        team_kind: 'FULFILLER',
        power_role: 'ADMIN',
        permissions: [],
        rate_tier: 1,
      },
    }));
  env = { FOS_BASE_URL: await api.start(), FOS_API_KEY: TOKEN };
});
afterAll(() => api.stop());
beforeEach(() => {
  api.requests.length = 0;
});

const last = () => api.requests.at(-1);

describe('products', () => {
  it('list: a table on a terminal with the product columns, paging hint on stderr', async () => {
    const r = await runCli(['products', 'list', '--limit', '2'], { env, tty: true });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+SKU\s+NAME\s+TYPE\s+AVAILABLE\s+ON_HAND\s+COMMITTED$/);
    expect(lines).toHaveLength(3);
    expect(r.stderr).toContain('more records: --page 1, or --all');
  });

  it('list: JSON array of records when piped; query flags use the server names', async () => {
    // Warehouse ids (UUIDs) go as they are; names are looked up (test/cli/names-and-ids.test.ts).
    const r = await runCli(
      [
        'products',
        'list',
        '--search',
        'mug',
        '--type',
        'standard',
        '--has-barcode',
        'false',
        '--warehouse-id',
        '01a21000-0000-7000-8000-000000000001,01a21000-0000-7000-8000-000000000002',
        '--order',
        'DESC',
      ],
      { env },
    );
    expect(JSON.parse(r.stdout)).toEqual(products);
    expect(Object.fromEntries(last()!.query)).toEqual({
      search: 'mug',
      type: 'STANDARD',
      has_barcode: 'false',
      warehouse_id: '01a21000-0000-7000-8000-000000000001,01a21000-0000-7000-8000-000000000002',
      order: 'desc',
    });
  });

  it('list --all streams every page as ndjson', async () => {
    const r = await runCli(['products', 'list', '--all', '--limit', '2', '--format', 'ndjson'], { env });
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([0, 1, 2, 3, 4].map(P));
    expect(api.requests.map((q) => q.query.get('page'))).toEqual(['0', '1', '2']);
  });

  it('list --all without --limit asks for 100 per page (sorted lists page; the default order streams the export)', async () => {
    await runCli(['products', 'list', '--all', '--order', 'asc'], { env });
    expect(last()!.query.get('limit')).toBe('100');
    await runCli(['products', 'list', '--all', '--search', 'mug'], { env });
    expect(last()!.path).toBe('/v1/ops/products/export');
    expect(last()!.query.get('search')).toBe('mug');
  });

  it('--merchant switches family and refuses ops-only filters', async () => {
    const ok = await runCli(['products', 'list', '--merchant', '--json', 'id'], { env });
    expect(JSON.parse(ok.stdout)).toEqual([{ id: P(0) }]);
    expect(last()!.path).toBe('/v1/merchant/products');
    api.requests.length = 0;
    const bad = await runCli(['products', 'list', '--merchant', '--has-image', 'true'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--merchant lists do not take --has-image');
    expect(api.requests).toHaveLength(0);
  });

  it('--json with an unknown field is a usage error listing the fields there are (get and list)', async () => {
    const get = await runCli(['products', 'get', P(3), '--json', 'idd,sku'], { env });
    expect(get.code).toBe(2);
    expect(get.stdout).toBe('');
    expect(get.stderr).toContain('unknown field "idd" in --json; available fields:');
    expect(get.stderr).toMatch(/\n\s+available\n/);
    const list = await runCli(['products', 'list', '--json', 'id,skuu'], { env });
    expect(list.code).toBe(2);
    expect(list.stdout).toBe('');
    expect(list.stderr).toContain('unknown field "skuu" in --json');
  });

  it('--jq runs real jq over the list (strings raw, values compact in a pipe) and over one record', async () => {
    const list = await runCli(['products', 'list', '--jq', '.[] | select(.available >= 3) | .sku'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('SKU-3\nSKU-4\n');
    const all = await runCli(
      ['products', 'list', '--all', '--limit', '2', '--json', 'id,available', '--jq', 'map(.available) | add, length'],
      { env },
    );
    expect(all.stdout).toBe('10\n5\n');
    const obj = await runCli(['products', 'get', P(3), '--jq', '{sku, stock: .on_hand}'], { env });
    expect(obj.stdout).toBe('{"sku":"SKU-3","stock":4}\n');
    const tty = await runCli(['products', 'get', P(3), '--jq', '{sku}'], { env, tty: true });
    expect(tty.stdout).toBe('{\n  "sku": "SKU-3"\n}\n');
  });

  it('--jq: a bad expression is a usage error (exit 2), a runtime error exit 1; not with --format csv', async () => {
    const bad = await runCli(['products', 'list', '--jq', '.[ | foo'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/--jq: .*syntax error.*compile error/);
    const runtime = await runCli(['products', 'get', P(3), '--jq', '.sku.x'], { env });
    expect(runtime.code).toBe(1);
    expect(runtime.stderr).toMatch(/--jq: Cannot index string/);
    const csv = await runCli(['products', 'list', '--format', 'csv', '--jq', '.'], { env });
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('--jq filters JSON; it cannot be combined with --format csv');
  });

  it('--template prints each record through a Mustache template (one line each, no escaping, \\t for tabs)', async () => {
    const list = await runCli(['products', 'list', '--template', '{{sku}}\\t{{available}} <{{name}}>'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split('\n').filter(Boolean)).toEqual(expect.arrayContaining(['SKU-3\t3 <Product 3>']));
    const one = await runCli(['products', 'get', P(3), '--template', '{{sku}}: {{on_hand}} on hand{{#missing}} never{{/missing}}'], {
      env,
      tty: true,
    });
    expect(one.stdout).toBe('SKU-3: 4 on hand\n');
    const bad = await runCli(['products', 'list', '--template', '{{#open}}x'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--template: Unclosed section "open"/);
    const both = await runCli(['products', 'list', '--template', '{{sku}}', '--jq', '.'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--template and --jq both shape the output');
  });

  it('get prints the record', async () => {
    const r = await runCli(['products', 'get', P(3), '--json', 'sku,available'], { env });
    expect(JSON.parse(r.stdout)).toEqual({ sku: 'SKU-3', available: 3 });
  });

  it('create: --data, then flags, then --field; type defaults to STANDARD; units canonicalised', async () => {
    const r = await runCli(
      [
        'products',
        'create',
        '--data',
        '{"name":"from data","description":"d","config":{"replenishment_minimum_level":1}}',
        '--name',
        'Blue mug',
        '--weight',
        '350',
        '--weight-unit',
        'g',
        '-F',
        'config.replenishment_maximum_level=9',
        '-F',
        'is_hazmat=false',
        '-f',
        'hs_code=0101',
        '-F',
        'measurement_unit=mm',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(last()!.body).toEqual({
      name: 'Blue mug',
      description: 'd',
      weight: 350,
      weight_unit: 'G',
      type: 'STANDARD',
      is_hazmat: false,
      hs_code: '0101',
      measurement_unit: 'MM',
      config: { replenishment_minimum_level: 1, replenishment_maximum_level: 9 },
    });
  });

  it('create validates enums and required fields before sending', async () => {
    const unit = await runCli(['products', 'create', '--name', 'x', '--weight-unit', 'KG'], { env });
    expect(unit.code).toBe(2);
    expect(unit.stderr).toContain('allowed values are G, LB');
    const type = await runCli(['products', 'create', '--name', 'x', '-f', 'type=BUNDLE'], { env });
    expect(type.code).toBe(2);
    expect(type.stderr).toBe('error: invalid type "BUNDLE": allowed values are STANDARD, VIRTUAL_BUNDLE, ASSEMBLY\n');
    const name = await runCli(['products', 'create', '--sku', 'A'], { env });
    expect(name.code).toBe(2);
    expect(name.stderr).toBe('error: missing name: pass --name or --field name=…\n');
    const weight = await runCli(['products', 'create', '--name', 'x', '--weight', '-1'], { env });
    expect(weight.code).toBe(2);
    expect(api.requests).toHaveLength(0);
  });

  it('update needs at least one field and sends a partial body', async () => {
    const empty = await runCli(['products', 'update', P(1)], { env });
    expect(empty.code).toBe(2);
    const r = await runCli(['products', 'update', P(1), '--sku', 'NEW', '-F', 'bundle_components=[]'], { env });
    expect(r.code).toBe(0);
    expect(last()).toMatchObject({ method: 'PATCH', path: `/v1/ops/products/${P(1)}`, body: { sku: 'NEW', bundle_components: [] } });
  });
});

describe('orders', () => {
  it('list maps every flag to the /v1/ops/orders/list parameter names', async () => {
    const r = await runCli(
      [
        'orders',
        'list',
        '--page',
        '2',
        '--limit',
        '50',
        '--search',
        'ada',
        '--status',
        'OPEN,PENDING_FULFILLMENT',
        '--payment-status',
        'PENDING',
        '--fulfillment-status',
        'FULFILLED',
        '--created-at-min',
        '2026-01-01',
        '--created-at-max',
        '2026-02-01T00:00:00Z',
        '--updated-at-min',
        '2026-01-02',
        '--updated-at-max',
        '2026-01-03',
        '--order-by',
        'order_number',
        '--order',
        'asc',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(Object.fromEntries(last()!.query)).toEqual({
      page: '2',
      limit: '50',
      search: 'ada',
      status: 'OPEN,PENDING_FULFILLMENT',
      payment_status: 'PENDING',
      fulfillment_status: 'FULFILLED',
      created_at_min: '2026-01-01',
      created_at_max: '2026-02-01T00:00:00Z',
      updated_at_min: '2026-01-02',
      updated_at_max: '2026-01-03',
      order_by: 'order_number',
      order: 'asc',
    });
  });

  it('list checks search length, dates and sort fields locally', async () => {
    for (const args of [
      ['--search', 'ab'],
      ['--created-at-min', 'yesterday'],
      ['--order-by', 'total_price'],
      ['--limit', '101'],
    ]) {
      const r = await runCli(['orders', 'list', ...args], { env });
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(api.requests).toHaveLength(0);
  });

  it('priority sends {priority} (any case) and lists the allowed values otherwise', async () => {
    const ok = await runCli(['orders', 'priority', '01a20692-0000-7000-8000-0000000000a1', 'high'], { env });
    expect(ok.code).toBe(0);
    expect(last()).toMatchObject({
      method: 'PATCH',
      path: '/v1/ops/orders/01a20692-0000-7000-8000-0000000000a1/priority',
      body: { priority: 'HIGH' },
    });
    const bad = await runCli(['orders', 'priority', '01a20692-0000-7000-8000-0000000000a1', 'urgent'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: invalid priority "urgent": allowed values are LOW, NORMAL, HIGH, CRITICAL\n');
  });
});

describe('fulfillment workflow', () => {
  it('lock defaults owner ($FOS_LOCK_OWNER) and timeout; flags override', async () => {
    await runCli(['fulfillment-orders', 'lock', FO1], { env });
    expect(last()!.body).toEqual({ lock_owner: 'tester@bench', timeout_minutes: 15 });
    const r = await runCli(['fulfillment-orders', 'lock', FO1, '--owner', 'station-4', '--timeout', '30', '--json', 'success,lock_owner'], {
      env,
    });
    expect(last()!.body).toEqual({ lock_owner: 'station-4', timeout_minutes: 30 });
    expect(JSON.parse(r.stdout)).toEqual({ success: true, lock_owner: 'station-4' });
  });

  it('accept sends no body', async () => {
    const r = await runCli(['fulfillment-orders', 'accept', FO1], { env });
    expect(r.code).toBe(0);
    expect(last()).toMatchObject({ method: 'POST', rawBody: '' });
    expect(last()!.headers['content-type']).toBeUndefined();
  });

  it('packages create: --item lines, idempotency key as field and header', async () => {
    const r = await runCli(
      [
        'packages',
        'create',
        '--fulfillment-order',
        FO1,
        '--item',
        'sku=MUG,quantity=2',
        '--item',
        'sku=CUP,quantity=1,product_id=p9',
        '--weight',
        '0.8',
        '--weight-unit',
        'lb',
        '--rate-strategy',
        'cheapest',
        '--idempotency-key',
        'pk-1',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(last()!.body).toEqual({
      fulfillment_order_id: FO1,
      weight: 0.8,
      weight_unit: 'LB',
      rate_strategy: 'CHEAPEST',
      idempotency_key: 'pk-1',
      package_line_items: [
        { sku: 'MUG', quantity: 2 },
        { sku: 'CUP', quantity: 1, product_id: 'p9' },
      ],
    });
    expect(last()!.headers['idempotency-key']).toBe('pk-1');
    const bad = await runCli(['packages', 'create', '--fulfillment-order', FO1, '--item', 'sku=MUG,quantity=0'], { env });
    expect(bad.code).toBe(2);
  });

  it('packages fulfill sends locked_by', async () => {
    const pk1 = '01900000-0000-7000-8000-0000000000a1';
    await runCli(['packages', 'fulfill', pk1, '--locked-by', 'station-4'], { env });
    expect(api.requests).toHaveLength(1);
    expect(last()).toMatchObject({ path: `/v1/ops/packages/${pk1}/fulfill`, body: { locked_by: 'station-4' } });
  });

  it('picking-sessions orders uses the spec literal path and limit 1..50', async () => {
    const r = await runCli(['picking-sessions', 'orders', PS1, '--status', 'pending'], { env });
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(last()!.path).toBe(`/v1/ops/v1/picking-sessions/${PS1}/fulfillment-orders`);
    expect(last()!.query.get('status')).toBe('PENDING');
    expect((await runCli(['picking-sessions', 'orders', PS1, '--limit', '51'], { env })).code).toBe(2);
  });

  it('picking-sessions orders takes the session by its name, as fos pick does', async () => {
    const r = await runCli(['picking-sessions', 'orders', 'Wave 7'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(last()!.path).toBe(`/v1/ops/v1/picking-sessions/${PS1}/fulfillment-orders`);
  });
});

describe('keys and roles', () => {
  it('disable without a terminal needs --yes and sends nothing', async () => {
    const r = await runCli(['keys', 'disable', 'k1'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: confirmation required: pass --yes to run non-interactively\n');
    expect(api.requests).toHaveLength(0);
  });

  it('disable --yes runs and reports on stderr', async () => {
    const r = await runCli(['keys', 'disable', 'k1', '--yes'], { env });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: 'disabled key k1\n' });
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/keys/k1/disable' });
  });

  it('on a terminal, delete asks; "no" cancels (exit 1), "yes" deletes', async () => {
    const questions: string[] = [];
    const no = await runCli(['keys', 'delete', 'k1'], {
      env,
      tty: true,
      prompts: { confirm: async (o) => (questions.push(o.message), false) },
    });
    expect(no.code).toBe(1);
    expect(no.stderr).toBe('error: cancelled\n');
    expect(questions).toEqual(['Delete key "ci-runner" (k1)? This cannot be undone.']);
    expect(api.requests.map((q) => q.method)).toEqual(['GET']); // only the lookup that names it
    const yes = await runCli(['keys', 'delete', 'k1'], { env, tty: true, prompts: { confirm: async () => true } });
    expect(yes.code).toBe(0);
    expect(last()).toMatchObject({ method: 'DELETE', path: '/v1/keys/k1' });
  });

  it('create prints the record with the token once and warns on stderr', async () => {
    // Roles by name or id.
    const r = await runCli(['keys', 'create', '--name', 'ci', '--power-role', 'member', '--role', `packer,${R2}`, '--tier', '2'], { env });
    expect(last()!.body).toEqual({ name: 'ci', power_role: 'MEMBER', role_ids: [R1, R2], rate_tier: 2 });
    expect(JSON.parse(r.stdout).token).toMatch(/^fos_NEW/);
    expect(r.stderr).toContain('shown only once');
  });

  it('roles and tier', async () => {
    await runCli(['keys', 'roles', 'k1', 'picker', R1], { env });
    expect(last()).toMatchObject({ method: 'PUT', path: '/v1/keys/k1/roles', body: { role_ids: [R2, R1] } });
    const unknown = await runCli(['keys', 'roles', 'k1', 'shipper'], { env });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('no role has name shipper (fos roles list shows them)');
    await runCli(['keys', 'tier', 'k1', '3'], { env });
    expect(last()).toMatchObject({ method: 'PUT', body: { tier: 3 } });
    expect((await runCli(['keys', 'tier', 'k1', '5'], { env })).code).toBe(2);
  });

  it('roles create validates permissions (repeatable or comma-separated)', async () => {
    await runCli(
      ['roles', 'create', '--name', 'packer', '--permission', 'read_orders,READ_FULFILLMENTS', '--permission', 'WRITE_FULFILLMENTS'],
      { env },
    );
    expect(last()!.body).toEqual({ name: 'packer', permissions: ['READ_ORDERS', 'READ_FULFILLMENTS', 'WRITE_FULFILLMENTS'] });
    const bad = await runCli(['roles', 'create', '--name', 'x', '--permission', 'FLY'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('READ_PRODUCTS, WRITE_PRODUCTS');
  });
});

describe('charges', () => {
  it('create-storage nests data and needs exactly one billing target', async () => {
    const M1 = '01a21000-0000-7000-8000-0000000000a1'; // a merchant team id: nothing to look up
    const where = ['--location-type', 'lt1', '--warehouse', '01a21000-0000-7000-8000-000000000001'];
    await runCli(
      ['charges', 'create-storage', '--merchant-team', M1, '--name', 'Pallets', '--quantity', '4', '--rate-period', 'daily', ...where],
      { env },
    );
    expect(last()!.body).toEqual({
      merchant_team_id: M1,
      data: {
        name: 'Pallets',
        quantity: 4,
        rate_period: 'DAILY',
        location_type_id: 'lt1',
        warehouse_id: '01a21000-0000-7000-8000-000000000001',
      },
    });
    const both = await runCli(
      [
        'charges',
        'create-storage',
        '--merchant',
        M1,
        '--delegation',
        'd1',
        '--name',
        'P',
        '--quantity',
        '1',
        '--rate-period',
        'DAILY',
        ...where,
      ],
      { env },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: pass exactly one of --delegation and --merchant\n');
    const missing = await runCli(['charges', 'create-storage', '--delegation', 'd1', '--name', 'P', '--rate-period', 'WEEKLY', ...where], {
      env,
    });
    expect(missing.stderr).toBe('error: missing data.quantity: pass --quantity or --field data.quantity=…\n');
  });
});

describe('fos api', () => {
  it('GET: fields go to the query, a leading /v1 is accepted, JSON printed even on a terminal', async () => {
    const r = await runCli(['api', 'get', '/v1/ops/products', '-F', 'limit=2', '-f', 'search=mug'], { env, tty: true });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toHaveLength(2);
    expect(last()!.path).toBe('/v1/ops/products');
    expect(Object.fromEntries(last()!.query)).toEqual({ limit: '2', search: 'mug' });
  });

  it('POST: typed and string fields build a nested JSON body', async () => {
    await runCli(
      [
        'api',
        'POST',
        'ops/draft-orders',
        '-f',
        'data[name]=Inbound',
        '-F',
        'data[quantity]=3',
        '-F',
        'tags[]=a',
        '-F',
        'tags[]=b',
        '-F',
        'paid=true',
      ],
      { env },
    );
    expect(last()!.body).toEqual({ data: { name: 'Inbound', quantity: 3 }, tags: ['a', 'b'], paid: true });
  });

  it('--input - sends stdin as the raw body; -H adds headers', async () => {
    await runCli(['api', 'POST', '/ops/draft-orders', '--input', '-', '-H', 'Idempotency-Key: 42'], { env, stdin: '{"raw":1}' });
    expect(last()).toMatchObject({ rawBody: '{"raw":1}', body: { raw: 1 } });
    expect(last()!.headers['idempotency-key']).toBe('42');
  });

  it('--paginate walks pages and prints all records', async () => {
    const r = await runCli(['api', 'GET', '/ops/products', '--paginate', '-F', 'limit=2', '--format', 'ndjson'], { env });
    expect(r.stdout.trim().split('\n')).toHaveLength(5);
  });

  it('refuses full URLs (the key must not leave the configured server)', async () => {
    const r = await runCli(['api', 'GET', 'http://evil.example/v1/me'], { env });
    expect(r.code).toBe(2);
    expect(api.requests).toHaveLength(0);
  });
});

describe('login', () => {
  it('reads the key from stdin with --with-token, verifies it with GET /me, saves and selects the profile', async () => {
    const r = await runCli(['login', '--base-url', env.FOS_BASE_URL.replace(/\/v1$/, ''), '--with-token', '--profile', 'bench'], {
      stdin: `${TOKEN}\n`,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Logged in to');
    expect(r.stderr).toContain('"bench key" (ADMIN, team My Warehouse)');
    expect(r.stderr).toContain('fos_…eeee');
    expect(r.stderr).not.toContain(TOKEN);
    expect(last()).toMatchObject({ path: '/v1/me' });
    const list = await runCli(['profile', 'list'], { env: { FOS_CONFIG_DIR: r.ctx.env.FOS_CONFIG_DIR } });
    expect(JSON.parse(list.stdout)).toEqual([{ name: 'bench', current: true, base_url: env.FOS_BASE_URL, api_key: 'fos_…eeee' }]);
    const again = await runCli(['products', 'list', '--json', 'id'], { env: { FOS_CONFIG_DIR: r.ctx.env.FOS_CONFIG_DIR } });
    expect(JSON.parse(again.stdout)).toHaveLength(5);
  });

  it('a rejected key exits 3 and saves nothing', async () => {
    const r = await runCli(['login', '--base-url', env.FOS_BASE_URL, '--api-key', 'fos_wrong'], {});
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: Unauthorized: /m);
    const list = await runCli(['profile', 'list'], { env: { FOS_CONFIG_DIR: r.ctx.env.FOS_CONFIG_DIR } });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('without a terminal, a missing key is a usage error naming the flags', async () => {
    const r = await runCli(['login', '--base-url', env.FOS_BASE_URL], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: API key required: pass --api-key, or --with-token with the key on stdin\n');
  });

  it('on a terminal, prompts for the URL and the key', async () => {
    const asked: string[] = [];
    const r = await runCli(['login'], {
      tty: true,
      prompts: {
        input: async (o) => (asked.push(o.message), env.FOS_BASE_URL),
        password: async (o) => (asked.push(o.message), TOKEN),
      },
    });
    expect(r.code).toBe(0);
    expect(asked).toEqual(['Base URL of the fos API:', 'API key:']);
  });
});
