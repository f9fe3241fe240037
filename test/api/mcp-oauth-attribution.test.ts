import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { authorizeUrl, Browser, person, pkce, register, token } from '../helpers/oauth.js';

// Attribution (issue 11 item 6): work done through an agent connection records its person where
// the spec has a user field (fulfillments and fulfillment orders: packed_by_user_id/name), and
// its connection id where an actor is recorded (inventory movements' actor_key_id, request logs).

let t: TestApp;
let base: string;
const logLines: string[] = [];
const REDIRECT = 'http://127.0.0.1:9/cb';
const LABEL = { label_url: 'https://labels.example/l.pdf', carrier: 'USPS', service: 'Priority', cost: 7.1, cost_currency: 'USD' };

beforeAll(async () => {
  t = await testApp({ oauthRateLimit: false, logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t?.close());

async function execute(accessToken: string, args: Record<string, unknown>) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'execute_svc_operation', arguments: { confirm_write: true, ...args } },
    }),
  });
  return (await res.json()).result.structuredContent as { status: number; body: any };
}

describe("attribution of an agent connection's work", () => {
  it('records the person on the fulfillment and the connection on inventory movements', async () => {
    const pat = await person(t.db, t.teamId);
    const client = await register(base, REDIRECT);
    const { verifier, challenge } = pkce();
    const done = await new Browser(base).approve(
      authorizeUrl(base, { clientId: client.client_id, redirectUri: REDIRECT, challenge }),
      pat,
      { preset: 'READ_AND_OPERATE' },
    );
    const code = new URL(done.location!).searchParams.get('code')!;
    const { body: tokens } = await token(base, {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    const connectionId = (await t.db.prisma.mcpConnection.findFirstOrThrow({ where: { client_id: client.client_id } })).id;

    const f = await fulfillmentFixture(t, { status: 'ACCEPTED', lines: [{ quantity: 1 }] });
    expect(
      (
        await execute(tokens.access_token, {
          operation_key: 'POST /v1/ops/fulfillment-orders/{fulfillment_order_id}/lock',
          path_params: { fulfillment_order_id: f.fo.id },
          body: { lock_owner: 'agent', timeout_minutes: 5 },
        })
      ).status,
    ).toBe(200);
    const pkg = await execute(tokens.access_token, {
      operation_key: 'POST /v1/ops/packages',
      body: { fulfillment_order_id: f.fo.id, weight: 300, weight_unit: 'G', package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }] },
    });
    expect(pkg.status).toBe(201);
    expect(
      (
        await execute(tokens.access_token, {
          operation_key: 'POST /v1/ops/packages/{package_id}/label',
          path_params: { package_id: pkg.body.id },
          body: { ...LABEL, tracking_number: 'TRK-AGENT-1' },
        })
      ).status,
    ).toBe(200);
    const fulfilled = await execute(tokens.access_token, {
      operation_key: 'POST /v1/ops/packages/{package_id}/fulfill',
      path_params: { package_id: pkg.body.id },
      body: { locked_by: 'agent' },
    });
    expect(fulfilled.status, JSON.stringify(fulfilled.body)).toBe(200);

    const fulfillment = await t.db.prisma.fulfillment.findFirstOrThrow({ where: { package_id: pkg.body.id } });
    expect(fulfillment).toMatchObject({ packed_by_user_id: pat.id, packed_by_user_name: pat.name });
    const fo = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
    expect(fo).toMatchObject({ packed_by_user_id: pat.id, packed_by_user_name: pat.name });

    const adjusted = await execute(tokens.access_token, {
      operation_key: 'POST /v1/ops/inventory/adjustments',
      body: { warehouse_id: f.warehouseId, reason: 'CYCLE_COUNT', lines: [{ sku: f.foLines[0].sku, delta: 1 }] },
    });
    expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(201);
    const movement = await t.db.prisma.inventoryMovement.findFirstOrThrow({
      where: { reference_type: 'adjustment' },
      orderBy: { created_at: 'desc' },
    });
    expect(movement.actor_key_id).toBe(connectionId);

    // Request logs carry the connection and its person (never a token).
    const fulfillLog = logLines
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'request completed' && l.connection_id === connectionId && l.user_id === pat.id);
    expect(fulfillLog).toBeTruthy();
    expect(logLines.join('\n')).not.toContain(tokens.access_token);

    // An API key's fulfill records no person.
    const g = await fulfillmentFixture(t, { status: 'ACCEPTED', lines: [{ quantity: 1 }] });
    await t.call('POST', `/v1/ops/fulfillment-orders/${g.fo.id}/lock`, { body: { lock_owner: 'key', timeout_minutes: 5 } });
    const keyPkg = await t.call('POST', '/v1/ops/packages', {
      body: { fulfillment_order_id: g.fo.id, weight: 300, weight_unit: 'G', package_line_items: [{ sku: g.foLines[0].sku, quantity: 1 }] },
    });
    await t.call('POST', `/v1/ops/packages/${keyPkg.json().id}/label`, { body: { ...LABEL, tracking_number: 'TRK-KEY-1' } });
    expect((await t.call('POST', `/v1/ops/packages/${keyPkg.json().id}/fulfill`, { body: { locked_by: 'key' } })).statusCode).toBe(200);
    expect(await t.db.prisma.fulfillment.findFirstOrThrow({ where: { package_id: keyPkg.json().id } })).toMatchObject({
      packed_by_user_id: null,
    });
  });
});
