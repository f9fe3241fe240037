import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../helpers/db.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { replicaWorld, startReplicas, type Replicas, type ReplicaWorld } from '../helpers/replicas.js';

// Two `fos serve` replicas on one PostgreSQL database buying labels from the EasyPost double:
// buys of one package racing across both replicas buy it exactly once (the purchase claim is
// one open row per package), and every replica opens the credentials the other sealed (a shared
// FOS_SECRET_KEY).

let w: ReplicaWorld;
let r: Replicas;
let ep: EasyPostDouble;
let drop: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshPostgresUrl();
  drop = fresh.drop;
  ep = await easypostDouble();
  w = await replicaWorld(fresh.url);
  r = await startReplicas(fresh.url, 2, { args: ['--allow-private-network'], env: { FOS_SECRET_KEY: randomBytes(32).toString('hex') } });
}, 90_000);
afterAll(async () => {
  await r?.stop();
  await w?.db.close();
  await ep?.close();
  await drop?.();
});

describe('carrier label buys across two replicas', () => {
  it('racing buys of one package buy once', async () => {
    const ci = await r.send(
      0,
      'POST',
      '/ops/carrier-integrations',
      { name: 'EasyPost', type: 'EASYPOST', api_base_url: `${ep.url}/v2`, credentials: { api_key: ep.apiKey } },
      w.token,
    );
    expect(ci.status, JSON.stringify(ci.body)).toBe(201);
    expect((await r.send(1, 'POST', `/ops/carrier-integrations/${ci.body.id}/test`, undefined, w.token)).status).toBe(200);
    for (let round = 0; round < 4; round++) {
      const f = await fulfillmentFixture(w.fx, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
      const p = await r.send(
        round,
        'POST',
        '/ops/packages',
        { fulfillment_order_id: f.fo.id, weight: 800, weight_unit: 'G', package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }] },
        w.token,
      );
      expect(p.status, JSON.stringify(p.body)).toBe(201);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => r.send(i, 'POST', `/ops/packages/${p.body.id}/label`, { rate_strategy: 'CHEAPEST' }, w.token)),
      );
      const statuses = results.map((x) => x.status);
      expect(
        statuses.filter((s) => s === 200),
        JSON.stringify(results.map((x) => x.body)),
      ).toHaveLength(1);
      expect(statuses.every((s) => [200, 409, 503].includes(s))).toBe(true);
      const sold = [...ep.shipments.values()].filter((s) => s.reference === p.body.id && s.postage_label);
      expect(sold).toHaveLength(1);
      const label = await w.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.body.id } });
      expect(label.tracking_code).toBe(sold[0].tracking_code);
    }
  }, 120_000);
});
