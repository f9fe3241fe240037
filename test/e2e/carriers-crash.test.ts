import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { easypostDouble } from '../helpers/easypost-double.js';
import { spawnServe, useServeSandbox } from '../helpers/serve-process.js';

// A label bought from EasyPost while fos serve is killed outright (SIGKILL) between the
// platform's answer and fos's commit: the purchase was claimed before the call, so the restarted
// server reconciles it with EasyPost (the shipment reads back as bought) and attaches that label:
// nothing is lost and nothing is bought again. The crash is placed by holding the label file
// download, which fos does after EasyPost sold the label and before it commits.

const box = useServeSandbox();
const ep = await easypostDouble();
afterAll(() => ep.close());

describe('a label purchase interrupted by kill -9', () => {
  it('is recovered on restart: attached once, bought once', async () => {
    const db = path.join(box.dir, 'crash.db');
    const env = { ...box.env, FOS_SECRET_KEY: randomBytes(32).toString('hex'), FOS_LABEL_CLAIM_LEASE_MS: '1000' };
    const args = ['--db', db, '--port', '0', '--demo', '--allow-private-network'];
    const first = box.track(spawnServe(args, env, box.dir));
    const server = await first.started;
    const token = /API key \(shown once\): (\S+)/.exec(server.stderr())![1]!;
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${(global as any).base ?? server.url}${p}`, {
        method,
        headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };

    const ci = await api('POST', '/ops/carrier-integrations', {
      name: 'EasyPost',
      type: 'EASYPOST',
      api_base_url: `${ep.url}/v2`,
      credentials: { api_key: ep.apiKey },
    });
    expect(ci.status, JSON.stringify(ci.body)).toBe(201);
    const fos = await api('GET', '/ops/fulfillment-orders?limit=50');
    const fo = fos.body.data.find((f: any) => f.status === 'ACCEPTED' || f.request_status === 'ACCEPTED');
    const pkg = await api('POST', '/ops/packages', {
      fulfillment_order_id: fo.id,
      name: 'Crash box',
      weight: 1200,
      weight_unit: 'G',
      package_line_items: fo.line_items.slice(0, 1).map((l: any) => ({ sku: l.sku, quantity: 1 })),
    });
    expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);

    const held = ep.hold(/^\/files\//);
    const buying = api('POST', `/ops/packages/${pkg.body.id}/label`, { rate_strategy: 'CHEAPEST' }).catch(() => null);
    await held.arrived; // EasyPost sold the label; fos is downloading it, nothing committed yet
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    await buying;
    held.release();
    const sold = [...ep.shipments.values()].filter((s) => s.reference === pkg.body.id && s.postage_label);
    expect(sold).toHaveLength(1);

    const second = box.track(spawnServe(args, env, box.dir));
    const again = await second.started;
    (global as any).base = again.url;
    try {
      // A retried request reconciles (or finds it settled by the recovery worker); it never buys.
      let label: any;
      for (let i = 0; i < 120 && !label; i++) {
        const retry = await api('POST', `/ops/packages/${pkg.body.id}/label`, { rate_strategy: 'CHEAPEST' });
        expect([200, 409, 503]).toContain(retry.status);
        const got = await api('GET', `/ops/packages/${pkg.body.id}`);
        if (got.body.shipping_label) label = got.body.shipping_label;
        else await new Promise((r) => setTimeout(r, 250));
      }
      expect(label).toMatchObject({ tracking_code: sold[0].tracking_code, remote_id: sold[0].id, carrier_integration_type: 'EASYPOST' });
      expect(ep.calls(/\/buy$/).filter((r) => r.path.includes(sold[0].id))).toHaveLength(1);
      expect(ep.calls(/\/buy$/)).toHaveLength(1);
      const doc = await fetch(`${again.url}/ops/packages/${pkg.body.id}/label`, { headers: { 'x-access-token': token } });
      expect(doc.status).toBe(200);
      expect(
        Buffer.from(await doc.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    } finally {
      delete (global as any).base;
    }
  }, 120_000);
});
