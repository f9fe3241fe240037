// TEST-ONLY. DELETE AT MERGE once the real scan endpoints of issue 28 exist in main (helpers
// `picking` and `packing`; /work/wt/_brief/floor-contract.md). It lets test/e2e/floor-browser.test.ts
// drive the /floor page before they are merged: the scan endpoints of the contract, minimally, on
// in-memory maps, registered only by that test. Everything else the page calls (sign-in,
// sessions, the pick list GET, fulfillment orders, packages) is the real server.
//
//   POST/DELETE /v1/ops/picking-sessions/:id/scans[/:scan_id]
//   GET/POST/DELETE /v1/ops/fulfillment-orders/:id/pack-scans[/:scan_id], POST …/:id/pack
//
// It validates as the contract says (wrong bin / item / more than needed -> 409 with `expected`,
// unknown barcode or bin -> 422) and replays a repeated Idempotency-Key. Not a second domain:
// no lots, no short-pick bookkeeping beyond the count, no transactions.

import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pickList } from '../../src/domain/picking/pick-list.js';

type Row = Awaited<ReturnType<typeof pickList>>['rows'][number];
interface PickScan {
  id: string;
  location_id: string;
  location_name: string;
  product_id: string;
  sku: string | null;
  lot_code: string | null;
  quantity: number;
  tote_name: string | null;
  fulfillment_order_id: string | null;
  short: boolean;
  created_at: string;
}
interface PackScan {
  id: string;
  product_id: string;
  sku: string | null;
  lot_code: string | null;
  quantity: number;
  created_at: string;
}

export interface FloorScanDouble {
  pickScans: Map<string, PickScan[]>;
  packScans: Map<string, PackScan[]>;
  /** Requests that carried each Idempotency-Key (a replay counts; it is applied once). */
  keys: Map<string, number>;
}

const problem = (reply: FastifyReply, status: number, detail: string, extra: Record<string, unknown> = {}) =>
  reply
    .code(status)
    .type('application/problem+json')
    .send({ type: 'about:blank', title: status === 409 ? 'Conflict' : 'Unprocessable', status, detail, ...extra });

export function floorScanDouble(): { state: FloorScanDouble; plugin: (app: FastifyInstance) => Promise<void> } {
  const state: FloorScanDouble = { pickScans: new Map(), packScans: new Map(), keys: new Map() };
  const answers = new Map<string, { status: number; body: unknown }>();

  /** Replays the stored answer of a repeated Idempotency-Key, else runs and stores. */
  const once = async (request: FastifyRequest, reply: FastifyReply, run: () => Promise<unknown>) => {
    const key = request.headers['idempotency-key'] as string | undefined;
    if (key) state.keys.set(key, (state.keys.get(key) ?? 0) + 1);
    const seen = key && answers.get(key);
    if (seen) return reply.header('idempotent-replayed', 'true').code(seen.status).send(seen.body);
    const body = await run();
    if (key && reply.statusCode < 500) answers.set(key, { status: reply.statusCode, body });
    return body;
  };

  async function walk(app: FastifyInstance, teamId: string, sessionId: string) {
    const scans = state.pickScans.get(sessionId) ?? [];
    const list = await pickList(app.db, teamId, sessionId);
    const rows = list.rows.map((r: Row) => {
      const picked = scans
        .filter((s) => s.location_id === r.location_id && s.product_id === r.product_id && s.lot_code === r.lot_code)
        .reduce((n, s) => n + s.quantity, 0);
      return { ...r, picked, remaining: Math.max(0, r.quantity - picked) };
    });
    const next = rows.find((r) => r.remaining > 0) ?? null;
    return { rows, next, complete: !next };
  }

  async function pickScan(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const { id } = request.params as { id: string };
    const body = request.body as { location: string; barcode: string; quantity?: number; short?: boolean };
    const quantity = body.quantity ?? 1;
    const { next } = await walk(app, request.principal.teamId, id);
    const expected = next && { location_name: next.location_name, sku: next.sku, lot_code: next.lot_code, quantity: next.remaining };
    const location = await app.db.prisma.location.findFirst({ where: { OR: [{ name: body.location }, { barcode: body.location }] } });
    if (!location) return problem(reply, 422, `Unknown location ${body.location}.`, { expected });
    const product = await app.db.prisma.product.findFirst({ where: { OR: [{ barcode: body.barcode }, { sku: body.barcode }] } });
    if (!product) return problem(reply, 422, `Unknown barcode ${body.barcode}.`, { expected });
    if (!next) return problem(reply, 409, 'This session is picked: nothing is left to pick.', { expected });
    if (location.id !== next.location_id)
      return problem(reply, 409, `Wrong bin ${location.name}: go to ${next.location_name}.`, { expected });
    if (product.id !== next.product_id) return problem(reply, 409, `${product.sku} is not needed at ${location.name}.`, { expected });
    if (quantity > next.remaining) return problem(reply, 409, `Only ${next.remaining} more needed here.`, { expected });
    const tote = next.totes[0];
    const scan: PickScan = {
      id: randomUUID(),
      location_id: location.id,
      location_name: location.name,
      product_id: product.id,
      sku: product.sku,
      lot_code: next.lot_code,
      quantity,
      tote_name: tote?.tote_name ?? null,
      fulfillment_order_id: tote?.fulfillment_order_id ?? null,
      short: body.short ?? false,
      created_at: new Date().toISOString(),
    };
    state.pickScans.set(id, [...(state.pickScans.get(id) ?? []), scan]);
    const after = await walk(app, request.principal.teamId, id);
    return { scan, next: after.next, complete: after.complete };
  }

  async function packBody(app: FastifyInstance, foId: string) {
    const fo = await app.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: foId }, include: { line_items: true } });
    const scans = state.packScans.get(foId) ?? [];
    const byProduct = (pid: string | null) => scans.filter((s) => s.product_id === pid).reduce((n, s) => n + s.quantity, 0);
    return {
      scanned: [...new Set(scans.map((s) => s.product_id))].map((pid) => {
        const s = scans.find((x) => x.product_id === pid)!;
        return { sku: s.sku, product_id: pid, lot_code: s.lot_code, quantity: byProduct(pid) };
      }),
      remaining: fo.line_items.map((l) => ({
        sku: l.sku,
        product_id: l.product_id,
        quantity: l.remaining_quantity - byProduct(l.product_id),
      })),
      get complete() {
        return this.remaining.every((r) => r.quantity <= 0);
      },
    };
  }

  async function packScan(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const { id } = request.params as { id: string };
    const body = request.body as { barcode: string; quantity?: number };
    const quantity = body.quantity ?? 1;
    const now = await packBody(app, id);
    const product = await app.db.prisma.product.findFirst({ where: { OR: [{ barcode: body.barcode }, { sku: body.barcode }] } });
    if (!product) return problem(reply, 422, `Unknown barcode ${body.barcode}.`, { expected: now.remaining });
    const need = now.remaining.find((r) => r.product_id === product.id);
    if (!need) return problem(reply, 409, `${product.sku} is not in this order.`, { expected: now.remaining });
    if (quantity > need.quantity)
      return problem(reply, 409, `Only ${need.quantity} more ${product.sku} needed.`, { expected: now.remaining });
    const scan = {
      id: randomUUID(),
      product_id: product.id,
      sku: product.sku,
      lot_code: null,
      quantity,
      created_at: new Date().toISOString(),
    };
    state.packScans.set(id, [...(state.packScans.get(id) ?? []), scan]);
    const after = await packBody(app, id);
    return { scan, scanned: after.scanned, remaining: after.remaining, complete: after.complete };
  }

  /** Closes the box through the real POST /v1/ops/packages, with exactly the scanned lines. */
  async function pack(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const { id } = request.params as { id: string };
    const { scanned } = await packBody(app, id);
    if (!scanned.length) return problem(reply, 409, 'Nothing was scanned into this box.');
    const res = await app.inject({
      method: 'POST',
      url: '/v1/ops/packages',
      headers: { 'x-access-token': request.headers['x-access-token'] as string, host: request.headers.host ?? 'localhost' },
      payload: {
        fulfillment_order_id: id,
        package_line_items: scanned.map((s) => ({ product_id: s.product_id, quantity: s.quantity })),
        ...(request.body as object),
      },
    });
    if (res.statusCode === 201) state.packScans.delete(id);
    return reply
      .code(res.statusCode)
      .type(res.headers['content-type'] as string)
      .send(res.body);
  }

  const write = { config: { permission: 'WRITE_FULFILLMENTS' as const, family: 'ops' as const }, schema: { hide: true } };
  const read = { config: { permission: 'READ_FULFILLMENTS' as const, family: 'ops' as const }, schema: { hide: true } };
  const plugin = async (app: FastifyInstance) => {
    app.post('/v1/ops/picking-sessions/:id/scans', write, (req, reply) => once(req, reply, () => pickScan(app, req, reply)));
    app.delete('/v1/ops/picking-sessions/:id/scans/:scan_id', write, async (req, reply) => {
      const { id, scan_id } = req.params as { id: string; scan_id: string };
      state.pickScans.set(
        id,
        (state.pickScans.get(id) ?? []).filter((s) => s.id !== scan_id),
      );
      return reply.code(204).send();
    });
    app.get('/v1/ops/fulfillment-orders/:id/pack-scans', read, async (req) => {
      const b = await packBody(app, (req.params as { id: string }).id);
      return { scanned: b.scanned, remaining: b.remaining, complete: b.complete };
    });
    app.post('/v1/ops/fulfillment-orders/:id/pack-scans', write, (req, reply) => once(req, reply, () => packScan(app, req, reply)));
    app.delete('/v1/ops/fulfillment-orders/:id/pack-scans/:scan_id', write, async (req, reply) => {
      const { id, scan_id } = req.params as { id: string; scan_id: string };
      state.packScans.set(
        id,
        (state.packScans.get(id) ?? []).filter((s) => s.id !== scan_id),
      );
      return reply.code(204).send();
    });
    app.post('/v1/ops/fulfillment-orders/:id/pack', write, (req, reply) => once(req, reply, () => pack(app, req, reply)));
  };
  return { state, plugin };
}
