import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { easypostDouble } from '../helpers/easypost-double.js';
import { spawnServe, useServeSandbox } from '../helpers/serve-process.js';

// A label batch through EasyPost while fos serve is killed outright (SIGKILL) in the middle of
// it, one purchase sold by EasyPost and not yet committed: the restarted server takes the batch
// over when its lease runs out, reconciles the interrupted purchase, and finishes the rest.
// Every package ends BOUGHT with exactly one purchase at EasyPost, and the merged file has one
// page per package. The crash is placed by holding a label file download (after EasyPost sold
// the label, before fos commits), the fourth of the batch.

const box = useServeSandbox();
const ep = await easypostDouble();
afterAll(() => ep.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a label batch interrupted by kill -9', () => {
  it('is resumed by the restarted server: every package bought exactly once, one page each', { timeout: 180_000 }, async () => {
    const db = path.join(box.dir, 'batch.db');
    const env = {
      ...box.env,
      FOS_SECRET_KEY: randomBytes(32).toString('hex'),
      FOS_LABEL_CLAIM_LEASE_MS: '1000',
      FOS_LABEL_BATCH_LEASE_MS: '1000',
      FOS_LABEL_BATCH_CONCURRENCY: '1',
    };
    const args = ['--db', db, '--port', '0', '--demo', '--allow-private-network'];
    const first = box.track(spawnServe(args, env, box.dir));
    const server = await first.started;
    const token = /API key \(shown once\): (\S+)/.exec(server.stderr())![1]!;
    let base = server.url;
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${base}${p}`, {
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

    // A box for every open fulfillment order of the demo that can be packed (held orders refuse).
    const ids: string[] = [];
    for (const fo of (await api('GET', '/ops/fulfillment-orders?limit=100')).body.data) {
      if (!['PENDING', 'ACCEPTED'].includes(fo.status) || ids.length >= 8) continue;
      if (fo.status === 'PENDING') await api('POST', `/ops/fulfillment-orders/${fo.id}/accept`);
      const pkg = await api('POST', '/ops/packages', {
        fulfillment_order_id: fo.id,
        weight: 900,
        weight_unit: 'G',
        package_line_items: fo.line_items.map((l: any) => ({ sku: l.sku, quantity: l.remaining_quantity })),
      });
      if (pkg.status === 201) ids.push(pkg.body.id);
    }
    expect(ids.length).toBeGreaterThanOrEqual(5);

    // The fourth label file download is held (the first three pass): a matcher counting them.
    let downloads = 0;
    const fourth = { test: (p: string) => p.startsWith('/files/') && ++downloads > 3 } as unknown as RegExp;
    const held = ep.hold(fourth);
    const made = await api('POST', '/ops/label-batches', { package_ids: ids, rate_strategy: 'CHEAPEST' });
    expect(made.status, JSON.stringify(made.body)).toBe(202);
    const batchUrl = `/ops/label-batches/${made.body.id}`;
    await held.arrived; // EasyPost sold the fourth label; fos is downloading it, nothing committed yet
    expect((await api('GET', batchUrl)).body).toMatchObject({ status: 'RUNNING', bought: 3 });
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    held.release();

    const again = await box.track(spawnServe(args, env, box.dir)).started;
    base = again.url;
    let b: any;
    for (let i = 0; i < 600; i++) {
      b = (await api('GET', batchUrl)).body;
      if (b.status === 'COMPLETED') break;
      await sleep(100);
    }
    expect(b, JSON.stringify(b)).toMatchObject({ status: 'COMPLETED', bought: ids.length, failed: 0, skipped: 0 });
    expect(b.items.map((i: any) => i.package_id)).toEqual(ids);
    // EasyPost sold each package's label once, and fos asked it to buy once per package.
    for (const id of ids) {
      const sold = [...ep.shipments.values()].filter((s) => s.reference === id && s.postage_label);
      expect(sold, id).toHaveLength(1);
    }
    expect(ep.calls(/\/buy$/)).toHaveLength(ids.length);
    const file = await fetch(`${base}${batchUrl}/labels`, { headers: { 'x-access-token': token } });
    expect(file.status).toBe(200);
    expect((await PDFDocument.load(await file.arrayBuffer())).getPageCount()).toBe(ids.length);
  });
});
