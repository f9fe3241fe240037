import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { easypostSignature } from '../../src/connectors/carriers/easypost/webhook.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';

// `fos carriers` and `fos packages track` through the real command tree against a real server
// and the EasyPost test double: connect with the key from FOS_CARRIER_API_KEY (never printed
// back), list, test (a refused key is a one-line error and exit code 5/conflict), a label bought
// through it, its tracking history, disconnect.

let t: TestApp;
let env: Record<string, string>;
let ep: EasyPostDouble;
beforeAll(async () => {
  [{ t, env }, ep] = await Promise.all([cliServer({ allowPrivateWebhooks: true }), easypostDouble()]);
});
afterAll(async () => {
  await Promise.all([t?.close(), ep?.close()]);
});

const fos = (args: string[], extra: Record<string, string> = {}) => runCli(args, { env: { ...env, ...extra } });

describe('fos carriers', () => {
  it('connects, lists, tests, buys, tracks and disconnects', async () => {
    const c = await fos(
      ['carriers', 'connect', 'easypost', '--api-base-url', `${ep.url}/v2`, '--webhook-secret', 'whs', '--format', 'json'],
      { FOS_CARRIER_API_KEY: ep.apiKey },
    );
    expect(c.code, c.stderr).toBe(0);
    const ci = JSON.parse(c.stdout);
    expect(ci).toMatchObject({ name: 'EasyPost', type: 'EASYPOST', is_test: true, has_credentials: true });
    expect(c.stdout + c.stderr).not.toContain(ep.apiKey);

    const list = await fos(['carriers', 'list', '--format', 'json']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).map((r: any) => r.id)).toEqual([ci.id]);
    const ok = await fos(['carriers', 'test', ci.id, '--format', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true });

    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const p = (
      await t.call('POST', '/v1/ops/packages', {
        body: {
          fulfillment_order_id: f.fo.id,
          weight: 700,
          weight_unit: 'G',
          package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
        },
      })
    ).json();
    const bought = await fos(['packages', 'label', p.id, '--rate-strategy', 'FASTEST', '--format', 'json']);
    expect(bought.code, bought.stderr).toBe(0);
    const code = JSON.parse(bought.stdout).shipping_label_tracking_code;
    expect([...ep.shipments.values()].some((s) => s.tracking_code === code)).toBe(true);
    const raw = JSON.stringify({
      object: 'Event',
      description: 'tracker.updated',
      result: {
        object: 'Tracker',
        tracking_code: code,
        status: 'delivered',
        tracking_details: [
          { status: 'in_transit', message: 'Departed facility', datetime: '2026-11-20T08:00:00Z' },
          { status: 'delivered', message: 'Delivered, front door', datetime: '2026-11-21T15:00:00Z' },
        ],
      },
    });
    const hook = await t.app.inject({
      method: 'POST',
      url: `/v1/carriers/${ci.id}/webhooks`,
      payload: raw,
      headers: { 'content-type': 'application/json', 'x-hmac-signature': easypostSignature('whs', raw) },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const track = await fos(['packages', 'track', p.id, '--format', 'json']);
    expect(track.code, track.stderr).toBe(0);
    expect(JSON.parse(track.stdout).map((e: any) => [e.status, e.message])).toEqual([
      ['IN_TRANSIT', 'Departed facility'],
      ['DELIVERED', 'Delivered, front door'],
    ]);

    const upd = await fos(['carriers', 'update', ci.id, '--api-key', 'EZTK_bad']);
    expect(upd.code, upd.stderr).toBe(0);
    const bad = await fos(['carriers', 'test', ci.id]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('refused the API key (HTTP 401)');

    const gone = await fos(['carriers', 'disconnect', ci.id, '--yes', '--format', 'json']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(JSON.parse(gone.stdout)).toMatchObject({ enabled: false, has_credentials: false });

    // The last real integration gone: rating fails naming the way back, which then works.
    const rate = await t.call('POST', '/v1/ops/carrier-rates', {
      body: { carrier_id: 'ups', carrier_name: 'UPS', service_id: 'ground', service_name: 'Ground', amount: 5, estimated_days: 3 },
    });
    expect(rate.statusCode, rate.body).toBe(201);
    const f2 = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    const p2 = (
      await t.call('POST', '/v1/ops/packages', {
        body: {
          fulfillment_order_id: f2.fo.id,
          weight: 300,
          weight_unit: 'G',
          package_line_items: [{ sku: f2.foLines[0].sku, quantity: 1 }],
        },
      })
    ).json();
    expect(p2.id).toBeTruthy();
    const none = await fos(['packages', 'label', p2.id, '--rate-strategy', 'CHEAPEST']);
    expect(none.code, none.stderr).toBe(5);
    expect(none.stderr).toContain('fos carriers connect table');
    const table = await fos(['carriers', 'connect', 'table', '--format', 'json']);
    expect(table.code, table.stderr).toBe(0);
    expect(JSON.parse(table.stdout)).toMatchObject({ type: 'TABLE', enabled: true });
    const rated = await fos(['packages', 'label', p2.id, '--rate-strategy', 'CHEAPEST', '--format', 'json']);
    expect(rated.code, rated.stderr).toBe(0);
    expect(JSON.parse(rated.stdout).shipping_label_tracking_code).toBeTruthy();
  }, 120_000); // a dozen spawned commands

  it('refuses an unknown platform before sending anything', async () => {
    const r = await fos(['carriers', 'connect', 'fedex']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('easypost');
  });
});
