// The soak's heavier requests (bench/soak.mjs; issue 36 item 5): whole fulfillments and webhooks,
// beside the list pages, product writes and hostile requests of soak.mjs's mix. A fulfillment is
// the packer's chain (draft order, convert, accept, lock, package, label CHEAPEST from the demo's
// rate table, fulfill with its SHIPPING charge): it writes orders, packages, charges and outbox
// events, which an endpoint on a loopback receiver gets delivered (every seventh delivery answered
// 500, so retries run too). Webhook requests: sample events written through the outbox, the
// listener's long poll (without waiting), and unsigned platform webhooks to unknown shops and
// carrier integrations (refused before any work).
import { createServer } from 'node:http';

const j = (body) => JSON.stringify(body);

/** A loopback webhook receiver counting what it got; `close()` ends it. */
export async function receiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(received % 7 === 0 ? 500 : 204).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    received: () => received,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function call(url, key, method, p, body) {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: { 'x-access-token': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? j(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, data: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

/**
 * What the mix's fulfillments need on the demo data: a stocked product (a FOUND adjustment of a
 * million units at every warehouse, so orders never wait for stock) and its merchant; and the
 * webhook endpoint on `hookUrl` for every event.
 */
export async function prepareMix(url, key, hookUrl) {
  const must = async (method, p, body) => {
    const r = await call(url, key, method, p, body);
    if (r.status >= 300) throw new Error(`soak setup: ${method} ${p} answered ${r.status}: ${j(r.data)}`);
    return r.data;
  };
  const product = (await must('GET', '/ops/products?search=ACME-BOTTLE-1L')).data.find((p) => p.sku === 'ACME-BOTTLE-1L');
  const warehouses = (await must('GET', '/ops/warehouses')).data;
  for (const w of warehouses)
    await must('POST', '/ops/inventory/adjustments', {
      warehouse_id: w.id,
      reason: 'FOUND',
      lines: [{ sku: product.sku, delta: 1_000_000 }],
    });
  await must('POST', '/webhooks', { url: hookUrl, events: ['*'], description: 'soak receiver' });
  return { sku: product.sku, merchantId: product.merchant_team_id };
}

const ADDRESS = { name: 'Soak Customer', address1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' };

/** One fulfillment, request by request; resolves with the statuses it got (it stops at the first failure). */
export async function fulfillment(url, key, mix, i) {
  const statuses = [];
  const step = async (method, p, body) => {
    const r = await call(url, key, method, p, body);
    statuses.push(r.status);
    if (r.status >= 300) throw Object.assign(new Error('step failed'), { statuses });
    return r.data;
  };
  try {
    const draft = await step('POST', '/ops/draft-orders', {
      merchant_team_id: mix.merchantId,
      payment_status: 'PAID',
      shipping_address: ADDRESS,
      customer: { email: 'soak@example.com', name: 'Soak Customer' },
      line_items: [{ sku: mix.sku, quantity: 1 + (i % 3), price: 20 }],
    });
    const order = await step('POST', `/ops/draft-orders/${draft.id}/convert`);
    const fo = (await step('GET', `/ops/fulfillment-orders?order_id=${order.id}`)).data[0];
    await step('POST', `/ops/fulfillment-orders/${fo.id}/accept`);
    const owner = `soak-${i}`;
    await step('POST', `/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: owner, timeout_minutes: 5 });
    const lines = fo.line_items.map((l) => ({ core_fulfillment_order_line_item_id: l.id, quantity: l.quantity }));
    const pkg = await step('POST', '/ops/packages', {
      fulfillment_order_id: fo.id,
      idempotency_key: `soak-${fo.id}`,
      weight: 900,
      package_line_items: lines,
    });
    await step('POST', `/ops/packages/${pkg.id}/label`, { rate_strategy: 'CHEAPEST' });
    await step('POST', `/ops/packages/${pkg.id}/fulfill`, { locked_by: owner });
  } catch (err) {
    if (!err.statuses) statuses.push('error');
  }
  return statuses;
}

const EVENTS = ['order.created', 'package.fulfilled', 'inventory.adjusted', 'charge.created'];

/** The i-th webhook request: [method, path, headers, body] as soak.mjs's request() gives. */
export function webhookRequest(i, good) {
  const unknownId = `0190${String(i).padStart(28, '0')}`.slice(0, 32);
  switch (i % 4) {
    case 0:
      return ['POST', '/webhooks/events', good, j({ type: EVENTS[i % EVENTS.length] })];
    case 1:
      return ['GET', '/webhooks/events?wait=0&limit=50', good];
    case 2:
      return ['POST', `/channels/${unknownId}/webhooks`, { 'x-shopify-hmac-sha256': 'bm90IGEgc2lnbmF0dXJl' }, j({ id: i })];
    default:
      return ['POST', `/carriers/${unknownId}/webhooks`, { 'x-hmac-signature': 'hmac-sha256-hex=00' }, j({ object: 'Event' })];
  }
}
