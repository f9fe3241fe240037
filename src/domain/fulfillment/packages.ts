import { createHash } from 'node:crypto';
import { newId } from '../../db/ids.js';
import { isUniqueViolation } from '../../db/client.js';
import { readsOf } from '../../db/reads.js';
import { statementsOf, type Statements } from '../../db/statements.js';
import type { Db, Package, PackageLineItem, Prisma, TxClient } from '../../db/types.js';
import { packingSlipUrl } from './document-urls.js';
import { conflict, invalid, notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { unitsOf, type MeasurementSystem } from '../teams/index.js';
import { asAddress } from './lookups.js';
import { claimForPacking, packingLines, type PackingFo } from './packing.js';
import { byCreated, insertRows } from './store/common.js';
import { packageByIdempotencyKey } from './store/packing.js';
import { resolveConfig } from './package-config.js';
import { lineTotals, resolveLines, type LineInput } from './package-lines.js';
import { withPickedLots } from '../picking/index.js';
import { loadPackage, presentPackage, presentPackages, type PackageView } from './package-view.js';
import {
  deletePackageLinesExcept,
  findPackageLineKeys,
  findPackagePage,
  findPackageToUpdate,
  insertPackageLine,
  setPackageTotals,
  updatePackageLine,
  updatePendingPackage,
} from './store/packages.js';
import { transaction } from '../../db/tx.js';
import { inheritedRates } from './carrier-rates.js';
import { checkRateOptions, withoutStaleDays } from '../orders/index.js';
import type { RateStrategy } from '../../contract/rate-strategy.js';

// Packages: create (idempotent with a key), list, read, PATCH (spec 4.7).

export interface PackageFields {
  name?: string | null;
  weight?: number | null;
  weight_unit?: string;
  length?: number | null;
  width?: number | null;
  height?: number | null;
  measurement_unit?: string;
  rate_strategy?: RateStrategy | null;
  rate_within_days?: number | null;
  rate_exclude_carrier_ids?: string[] | null;
  carton_id?: string | null;
  config?: Record<string, unknown>;
}

export interface CreatePackageInput extends PackageFields {
  fulfillment_order_id: string;
  package_line_items: LineInput[];
  idempotency_key?: string;
}

export interface UpdatePackageInput extends PackageFields {
  fulfillment_order_id?: string;
  type?: string;
  package_line_items?: LineInput[];
}

export interface Caller {
  teamId: string;
  measurementSystem: MeasurementSystem;
}

/** Canonical JSON (sorted keys) of the create body without the key: tells a replay from a reuse. */
function requestHash(input: CreatePackageInput): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  const { idempotency_key: _ignored, ...body } = input;
  return createHash('sha256')
    .update(JSON.stringify(canon(body)))
    .digest('hex');
}

/** The package id an idempotency key already created (same body), null when unused; 409 on reuse. */
async function replayId(reader: Pick<Statements, 'all'>, teamId: string, key: string, hash: string): Promise<string | null> {
  // Inside the packing transaction on its prepared statements; before it, on the reads (src/db/reads.ts).
  const existing = await packageByIdempotencyKey(reader, teamId, key);
  if (!existing) return null;
  if (existing.request_hash !== hash) {
    throw conflict(`Idempotency key "${key}" was already used for package ${existing.id} with a different request body.`, {
      package_id: existing.id,
    });
  }
  return existing.id;
}

// Create and fulfill present the package from what their transaction wrote (no second read of
// eight statements). Other responses are read after the transaction commits: on PostgreSQL
// Prisma runs an include's relation queries concurrently, which a transaction's single
// connection only queues.

/** Makes a package's lines inside its transaction, after the order's claim (pack.ts: from the box's scans). */
export type LineBuilder = (tx: TxClient, fo: PackingFo, packageId: string) => Promise<LineInput[]>;

/**
 * `origin` (scheme://host of the request) makes packing_slip_url absolute; the id is made here
 * (UUIDv7, as the column default would) so the URL is written with the row, not by a second UPDATE.
 */
export async function createPackage(
  db: Db,
  caller: Caller,
  input: CreatePackageInput,
  origin = '',
  build?: LineBuilder,
): Promise<{ package: PackageView; created: boolean }> {
  const { teamId } = caller;
  const key = input.idempotency_key;
  const hash = requestHash(input);
  if (key) {
    const again = await replayId(readsOf(db), teamId, key, hash);
    if (again) return { package: await loadPackage(db.prisma, teamId, again), created: false };
  }
  const units = unitsOf(caller.measurementSystem);
  let result: { id: string; created: boolean; view?: PackageView };
  try {
    result = await transaction(db, async (tx) => {
      // The row lock, with the order's fields and the names the response shows: the package is
      // presented from what this transaction read and wrote (docs/performance.md, write path).
      const fo = await claimForPacking(tx, db.provider, teamId, input.fulfillment_order_id);
      if (key) {
        const again = await replayId(statementsOf(tx), teamId, key, hash); // a racer with the same key committed first
        if (again) return { id: again, created: false };
      }
      // Units a picker scanned carry their bin and lot (picking/picked-lines.ts; no query outside picking sessions).
      const id = newId();
      // A box closed from pack scans (pack.ts) brings its own lines, lots included.
      const wanted = build ? await build(tx, fo, id) : input.package_line_items;
      const lines = await withPickedLots(tx, fo, await resolveLines(tx, { id: fo.id, line_items: await packingLines(tx, fo.id) }, wanted));
      const names = fo.names;
      const warehouse = names.warehouse(fo.warehouse_id);
      const ship = asAddress(fo.order.shipping_address);
      const st = statementsOf(tx);
      const now = new Date();
      const [pkg] = await insertRows<Package>(
        st,
        'packages',
        [
          {
            id,
            packing_slip_url: packingSlipUrl(origin, id),
            idempotency_key: key ?? null,
            request_hash: hash,
            name: input.name ?? null,
            fulfiller_team_id: fo.fulfiller_team_id,
            merchant_team_id: fo.merchant_team_id,
            fulfillment_order_id: fo.id,
            warehouse_id: fo.warehouse_id,
            label_format: warehouse?.label_format ?? null,
            picking_session_id: fo.picking_session_id,
            ...inherited(fo.order.carrier_selection, input),
            length: input.length ?? null,
            width: input.width ?? null,
            height: input.height ?? null,
            measurement_unit: input.measurement_unit ?? units.measurement_unit,
            weight: input.weight ?? null,
            weight_unit: input.weight_unit ?? units.weight_unit,
            from_address: {
              name: warehouse?.name ?? null,
              company: names.team(fo.fulfiller_team_id),
              address1: warehouse?.address.address1 ?? null,
              address2: null,
              city: warehouse?.address.city ?? null,
              state: warehouse?.address.state ?? null,
              zip: warehouse?.address.zip ?? null,
              country: warehouse?.address.country ?? null,
              phone: null,
              email: null,
            },
            to_address: {
              name: ship.name ?? fo.order.customer_name ?? null,
              company: ship.company ?? null,
              address1: ship.address1 ?? null,
              address2: ship.address2 ?? null,
              city: ship.city ?? null,
              state: ship.state ?? null,
              zip: ship.zip ?? null,
              country: ship.country ?? null,
              phone: ship.phone ?? null,
              email: fo.order.customer_email ?? null,
            },
            config: resolveConfig(fo.order.config, input.config),
            ...lineTotals(lines.map((l) => l.data)),
          },
        ],
        now,
      );
      // The lines in one INSERT that returns them, in the order a read shows them.
      const lineItems = (
        await insertRows<PackageLineItem>(
          st,
          'package_line_items',
          lines.map((l) => ({ ...l.data, package_id: id })),
          now,
        )
      ).sort(byCreated);
      await enqueueEvent(tx, teamId, 'package.created', { package_id: pkg.id, fulfillment_order_id: fo.id, order_id: fo.order_id });
      const row = {
        ...pkg,
        line_items: lineItems,
        shipping_label: null,
        fulfillment: null,
        fulfillment_order: { order_id: fo.order_id, order: { shop_id: fo.order.shop_id } },
      };
      return { id: pkg.id, created: true, view: presentPackage(row, names) };
    });
  } catch (err) {
    const again = key && isUniqueViolation(err) ? await replayId(readsOf(db), teamId, key, hash) : null;
    if (!again) throw err;
    result = { id: again, created: false };
  }
  return { package: result.view ?? (await loadPackage(db.prisma, teamId, result.id)), created: result.created };
}

export interface ListPackagesInput extends PageRequest {
  fulfillment_order_id?: string;
  status?: string[];
  scan_form_id?: string;
}

/** Newest first. */
export async function listPackages(db: Db, teamId: string, input: ListPackagesInput) {
  const orderBy = [{ created_at: 'desc' }, { id: 'desc' }];
  const rows = await findPackagePage(
    db.prisma,
    pageArgs(
      input,
      {
        fulfiller_team_id: teamId,
        ...(input.fulfillment_order_id ? { fulfillment_order_id: input.fulfillment_order_id } : {}),
        ...(input.status ? { status: { in: input.status } } : {}),
        ...(input.scan_form_id ? { scan_form_id: input.scan_form_id } : {}),
      },
      orderBy,
    ),
  );
  const page = toPage(rows, input, undefined, orderBy);
  return { data: await presentPackages(db.prisma, page.data), meta: page.meta };
}

export const getPackage = (db: Db, teamId: string, id: string) => loadPackage(db.prisma, teamId, id);

/**
 * PATCH (spec 4.7): fulfillment_order_id and type are immutable (a different value is a 400);
 * package_line_items, when present, replaces the lines: with id -> updated, without id ->
 * created, missing -> deleted, validated as at create. Fulfilled packages cannot change (409).
 */
export async function updatePackage(db: Db, teamId: string, id: string, given: UpdatePackageInput): Promise<PackageView> {
  const input = withoutStaleDays(given);
  const pre = await findPackageToUpdate(db.prisma, teamId, id);
  if (!pre) throw notFound('Package', id);
  checkRateOptions({
    rate_strategy: (input.rate_strategy === undefined ? pre.rate_strategy : input.rate_strategy) as RateStrategy | null,
    rate_within_days: input.rate_within_days === undefined ? pre.rate_within_days : input.rate_within_days,
  });
  if (input.fulfillment_order_id !== undefined && input.fulfillment_order_id !== pre.fulfillment_order_id) {
    throw invalid('body.fulfillment_order_id', `is immutable: package ${id} belongs to fulfillment order ${pre.fulfillment_order_id}`);
  }
  if (input.type !== undefined && input.type !== pre.type) {
    throw invalid('body.type', `is immutable: package ${id} is of type ${pre.type}`);
  }
  const foId = pre.fulfillment_order_id;
  await transaction(db, async (tx) => {
    // Line changes re-check allocation against other packages: take the FO row lock first.
    const locked = input.package_line_items && foId ? await claimForPacking(tx, db.provider, teamId, foId) : null;
    // updated_at always: an updateMany with empty data matches nothing (count 0).
    const scalars: Prisma.PackageUpdateManyMutationInput = { updated_at: new Date() };
    for (const k of [
      'name',
      'weight',
      'weight_unit',
      'length',
      'width',
      'height',
      'measurement_unit',
      'rate_strategy',
      'rate_within_days',
      'carton_id',
    ] as const) {
      if (input[k] !== undefined) (scalars as Record<string, unknown>)[k] = input[k];
    }
    // null clears: stored as [] (no carrier left out), as a JSON column takes no plain null here.
    if (input.rate_exclude_carrier_ids !== undefined) scalars.rate_exclude_carrier_ids = input.rate_exclude_carrier_ids ?? [];
    if (input.config) scalars.config = resolveConfig(null, pre.config, input.config) as Prisma.InputJsonValue;
    const { count } = await updatePendingPackage(tx, teamId, id, scalars);
    if (!count) throw conflict(`Package ${id} is fulfilled; fulfilled packages cannot be changed.`);

    if (input.package_line_items && locked) await replaceLines(tx, id, locked.id, input.package_line_items);
  });
  return loadPackage(db.prisma, teamId, id);
}

async function replaceLines(tx: TxClient, packageId: string, foId: string, given: LineInput[]) {
  const existing = await findPackageLineKeys(tx, packageId);
  const byId = new Map(existing.map((e) => [e.id, e]));
  const seen = new Set<string>();
  const lines = given.map((l, i) => {
    if (!l.id) return l;
    const line = byId.get(l.id);
    if (!line) throw invalid(`body.package_line_items.${i}.id`, `is not a line item of package ${packageId}`);
    if (seen.has(l.id)) throw invalid(`body.package_line_items.${i}.id`, 'appears more than once');
    seen.add(l.id);
    return withStoredLine(l, line);
  });
  const resolved = await resolveLines(tx, { id: foId, line_items: await packingLines(tx, foId, packageId) }, lines);
  const keep = new Set(lines.map((l) => l.id).filter((x): x is string => !!x));
  await deletePackageLinesExcept(tx, packageId, [...keep]);
  for (const r of resolved) {
    if (r.input.id) await updatePackageLine(tx, r.input.id, r.data);
    else await insertPackageLine(tx, { ...r.data, package_id: packageId });
  }
  await setPackageTotals(tx, packageId, lineTotals(resolved.map((r) => r.data)));
}

/**
 * An item with an id updates that line (spec 4.7): `{id, quantity}` is enough. What it leaves
 * out is the stored line's: which fulfillment-order line it packs (unless it names a sku or
 * product itself) and its lot.
 */
function withStoredLine(
  l: LineInput,
  stored: { core_fulfillment_order_line_item_id: string | null; lot_code: string | null; expiration_date: Date | null },
): LineInput {
  const named = l.sku || l.product_id || l.core_fulfillment_order_line_item_id;
  return {
    ...l,
    ...(named || !stored.core_fulfillment_order_line_item_id
      ? {}
      : { core_fulfillment_order_line_item_id: stored.core_fulfillment_order_line_item_id }),
    lot_code: l.lot_code === undefined ? stored.lot_code : l.lot_code,
    expiration_date: l.expiration_date === undefined ? (stored.expiration_date?.toISOString() ?? null) : l.expiration_date,
  };
}

/** The order's carrier selection (automation rules or a person, docs/automation.md) under what the request gives. */
function inherited(selection: unknown, input: PackageFields) {
  const sel = (selection && typeof selection === 'object' ? selection : {}) as Record<string, unknown>;
  const s = (k: string) => (typeof sel[k] === 'string' ? (sel[k] as string) : null);
  return {
    carton_id: input.carton_id ?? s('carton_id'),
    carton_name: input.carton_id ? null : s('carton_name'),
    ...inheritedRates(sel, input),
    package_preset_id: s('package_preset_id'),
    package_preset_name: s('package_preset_name'),
    carrier_id: s('carrier_id'),
    service_id: s('service_id'),
    carrier_integration_id: s('carrier_integration_id'),
    carrier_integration_name: s('carrier_integration_name'),
    carrier_integration_type: s('carrier_integration_type'),
  };
}
