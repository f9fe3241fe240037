import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from '../api/orders.fixtures.js';
import { runCli } from './helpers/cli.js';

// `fos replenishments list` and `fos work-orders create|list|get` through the spawned CLI against
// a real server (issue 28).

let w: World;
let env: Record<string, string>;
let kit: string;
beforeAll(async () => {
  w = await world();
  const base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  env = { FOS_BASE_URL: `${base}/v1`, FOS_API_KEY: w.token };
  const call = async (method: string, url: string, body: unknown, status: number) => {
    const r = await w.call(method, url, body);
    expect(r.statusCode, r.body).toBe(status);
    return r.json();
  };
  await call(
    'POST',
    '/v1/ops/locations/bulk',
    {
      warehouse_id: w.east,
      locations: [
        { name: 'A-01', type: 'PICKABLE' },
        { name: 'O-01', type: 'OVERSTOCK' },
        { name: 'K-01', type: 'PICKABLE' },
      ],
    },
    201,
  );
  const part = await w.product('CLI-PART', {}, { merchantId: w.t.teamId });
  await call('PATCH', `/v1/ops/products/${part}`, { config: { replenishment_minimum_level: 5 } }, 200);
  const po = await call('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'CLI-PART', quantity: 12 }] }, 201);
  await call(
    'POST',
    `/v1/ops/purchase-orders/${po.id}/receive`,
    {
      lines: [
        { sku: 'CLI-PART', quantity: 2, location: 'A-01' },
        { sku: 'CLI-PART', quantity: 10, location: 'O-01' },
      ],
    },
    200,
  );
  kit = (
    await call(
      'POST',
      '/v1/ops/products',
      {
        name: 'CLI kit',
        sku: 'CLI-KIT',
        type: 'ASSEMBLY',
        measurement_unit: 'MM',
        weight_unit: 'G',
        assembly_components: [{ component_product_id: part, component_quantity: 4 }],
      },
      201,
    )
  ).id;
});
afterAll(() => w?.t.close());

const fos = (...args: string[]) => runCli(args, { env });
const json = async (...args: string[]) => {
  const r = await fos(...args, '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('fos replenishments and work-orders', () => {
  it('lists the replenishment task of a pickable bin below its minimum', async () => {
    const tasks = await json('replenishments', 'list', '--warehouse', 'East');
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ sku: 'CLI-PART', to_location: 'A-01', pickable_on_hand: 2, quantity_needed: 3 });
    expect(tasks[0].from_locations[0]).toMatchObject({ location: 'O-01', available: 10 });
  });

  it('builds kits once per idempotency key, lists and gets them; a short build exits 5 naming the component', async () => {
    const made = await json(
      'work-orders',
      'create',
      '--product',
      kit,
      '--quantity',
      '2',
      '--warehouse',
      'East',
      '--location',
      'K-01',
      '--idempotency-key',
      'cli-kit-1',
    );
    expect(made).toMatchObject({ sku: 'CLI-KIT', quantity: 2, location_name: 'K-01', status: 'COMPLETED' });
    const again = await json(
      'work-orders',
      'create',
      '--product',
      kit,
      '--quantity',
      '2',
      '--warehouse',
      'East',
      '--location',
      'K-01',
      '--idempotency-key',
      'cli-kit-1',
    );
    expect(again.id).toBe(made.id);
    const listed = await json('work-orders', 'list', '--product', kit);
    expect(listed.map((o: any) => o.id)).toEqual([made.id]);
    expect((await json('work-orders', 'get', made.id)).components[0]).toMatchObject({ sku: 'CLI-PART', quantity: 8 });
    const short = await fos('work-orders', 'create', '--product', kit, '--quantity', '2', '--warehouse', 'East');
    expect(short.code).toBe(5);
    expect(short.stderr).toMatch(/CLI-PART \(needs 8, 4 available\)/);
  });
});
