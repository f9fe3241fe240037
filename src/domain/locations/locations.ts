import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../../db/client.js';
import type { Db, Prisma, TxClient } from '../../db/types.js';
import { conflict, invalid, notFound } from '../errors.js';
import { transaction } from '../../db/tx.js';
import { claimWarehouse } from '../warehouses/index.js';
import type { LocationKind } from '../../contract/inventory-enums.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { expandRange } from './range.js';
import { noteAuditBefore } from '../audit/index.js';
import { warehouseNames } from '../names/index.js';
import * as store from './store.js';

// Locations (bins) of a team's warehouses (issue 28; docs/floor.md): CRUD, bulk creation from a
// range or a list (the CLI's CSV import). A name is unique in its warehouse; a barcode, when
// given, too (a scan must name one bin). The default location every warehouse has cannot be
// deleted; a location holding stock cannot be deleted either (move it out first).

type Row = Prisma.LocationGetPayload<object>;

export interface LocationFields {
  name: string;
  barcode?: string | null;
  type?: LocationKind;
  location_type_id?: string | null;
  pick_sequence?: number;
  active?: boolean;
}

export interface LocationQuery extends PageRequest {
  warehouse_id?: string[];
  type?: LocationKind[];
  active?: boolean;
  name?: string;
  count_requested?: boolean;
}

const ORDER = [{ warehouse_id: 'asc' as const }, { pick_sequence: 'asc' as const }, { name: 'asc' as const }, { id: 'asc' as const }];

export function locationView(l: Row) {
  return {
    id: l.id,
    warehouse_id: l.warehouse_id,
    name: l.name,
    barcode: l.barcode,
    type: l.type as LocationKind,
    location_type_id: l.location_type_id,
    pick_sequence: l.pick_sequence,
    active: l.active,
    is_default: l.is_default,
    count_requested_at: l.count_requested_at,
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

async function checkLocationType(tx: TxClient, teamId: string, id: string | null | undefined, path: string) {
  if (!id) return;
  if (!(await store.locationTypeExists(tx, teamId, id))) throw notFound(`Location type (${path})`, id);
}

/** Names and barcodes given twice in one request, or already used in the warehouse: a 409 naming them. */
async function checkUnique(tx: TxClient, warehouseId: string, items: LocationFields[], exceptId?: string) {
  const seen = new Set<string>();
  for (const [i, it] of items.entries()) {
    for (const key of [`name:${it.name}`, ...(it.barcode ? [`barcode:${it.barcode}`] : [])]) {
      if (seen.has(key)) throw invalid(`locations[${i}]`, `${key.replace(':', ' ')} is given twice`);
      seen.add(key);
    }
  }
  const names = items.map((i) => i.name);
  const barcodes = items.flatMap((i) => (i.barcode ? [i.barcode] : []));
  const taken = await store.findLocationUsing(tx, warehouseId, names, barcodes, exceptId);
  if (taken) {
    const what = names.includes(taken.name) ? `name ${taken.name}` : `barcode ${taken.barcode}`;
    throw conflict(`Location ${what} is already used in warehouse ${warehouseId} (location ${taken.id}).`, { location_id: taken.id });
  }
}

/** Creates the locations in one transaction (all or none); pick_sequence defaults to after the warehouse's last. */
export async function createLocations(db: Db, teamId: string, warehouseId: string, items: LocationFields[]) {
  if (!items.length) throw invalid('locations', 'give at least one location');
  try {
    return await transaction(db, async (tx) => {
      await claimWarehouse(tx, warehouseId, teamId);
      await checkUnique(tx, warehouseId, items);
      for (const [i, it] of items.entries()) await checkLocationType(tx, teamId, it.location_type_id, `locations[${i}].location_type_id`);
      let next = ((await store.maxPickSequence(tx, warehouseId)) ?? 0) + 1;
      const now = new Date();
      const data = items.map((it) => ({
        id: randomUUID(),
        team_id: teamId,
        warehouse_id: warehouseId,
        name: it.name,
        barcode: it.barcode ?? null,
        type: it.type ?? 'PICKABLE',
        location_type_id: it.location_type_id ?? null,
        pick_sequence: it.pick_sequence ?? next++,
        active: it.active ?? true,
        created_at: now,
        updated_at: now,
      }));
      await store.insertLocations(tx, data);
      return store
        .findLocationsIn(
          tx,
          data.map((d) => d.id),
        )
        .then((rows) => rows.map(locationView));
    });
  } catch (err) {
    // Two requests creating the same name at once: the unique index decides, as a 409.
    if (isUniqueViolation(err))
      throw conflict(`A location of this name or barcode was created in warehouse ${warehouseId} at the same time; nothing was created.`);
    throw err;
  }
}

/** `range` (A-01-01..A-20-05) as locations sharing the other fields. */
export function fromRange(range: string, shared: Omit<LocationFields, 'name' | 'barcode' | 'pick_sequence'>): LocationFields[] {
  return expandRange(range).map((name) => ({ ...shared, name }));
}

export async function listLocations(db: Db, teamId: string, q: LocationQuery) {
  const where: Prisma.LocationWhereInput = { team_id: teamId };
  if (q.warehouse_id) where.warehouse_id = { in: q.warehouse_id };
  if (q.type) where.type = { in: q.type };
  if (q.active !== undefined) where.active = q.active;
  if (q.name) where.name = { startsWith: q.name };
  if (q.count_requested !== undefined) where.count_requested_at = q.count_requested ? { not: null } : null;
  const rows = await store.findLocationPage(db.prisma, pageArgs(q, where, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  // Each bin's warehouse named: every warehouse has a DEFAULT bin, and a list over several mixes them.
  const names = await warehouseNames(
    db.prisma,
    page.data.map((l) => l.warehouse_id),
  );
  return { meta: page.meta, data: page.data.map((l) => ({ ...locationView(l), warehouse_name: names.get(l.warehouse_id) ?? '' })) };
}

async function rowOf(client: TxClient, teamId: string, id: string) {
  const row = await store.findTeamLocation(client, teamId, id);
  if (!row) throw notFound('Location', id);
  return row;
}

export const getLocation = async (db: Db, teamId: string, id: string) => locationView(await rowOf(db.prisma, teamId, id));

export async function updateLocation(db: Db, teamId: string, id: string, patch: Partial<LocationFields>) {
  return transaction(db, async (tx) => {
    const { count } = await store.touchTeamLocation(tx, teamId, id, new Date());
    const row = await rowOf(tx, teamId, id);
    if (count !== 1) throw notFound('Location', id);
    noteAuditBefore(row, { key: row.name }); // the audit record's "from" (docs/audit.md)
    if (patch.name !== undefined || patch.barcode)
      await checkUnique(tx, row.warehouse_id, [{ name: patch.name ?? row.name, barcode: patch.barcode ?? null }], id);
    await checkLocationType(tx, teamId, patch.location_type_id, 'location_type_id');
    if (row.is_default && patch.active === false) throw conflict(`Location ${id} is the warehouse's default location; it stays active.`);
    return locationView(await store.updateLocationRow(tx, id, patch));
  });
}

export async function deleteLocation(db: Db, teamId: string, id: string) {
  await transaction(db, async (tx) => {
    const { count } = await store.touchTeamLocation(tx, teamId, id, new Date());
    if (count !== 1) throw notFound('Location', id);
    const row = await rowOf(tx, teamId, id);
    if (row.is_default) throw conflict(`Location ${row.name} is the warehouse's default location; it cannot be deleted.`);
    const held = await store.unitsHeldAt(tx, id);
    if ((held ?? 0) > 0)
      throw conflict(`Location ${row.name} holds ${held} units; move them out first (POST /v1/ops/inventory/moves).`, { on_hand: held });
    await store.deleteLocationRows(tx, id);
  });
}

/**
 * A location named in a request by id, name or barcode, in the warehouse when given (a name or
 * barcode needs one: it is unique per warehouse only). 404 naming the field otherwise.
 */
export async function resolveLocation(tx: TxClient, teamId: string, ref: string, warehouseId: string | undefined, path: string) {
  const byId = await store.findTeamLocation(tx, teamId, ref);
  if (byId && (!warehouseId || byId.warehouse_id === warehouseId)) return byId;
  if (warehouseId) {
    const row = await store.findLocationNamed(tx, teamId, warehouseId, ref);
    if (row) return row;
  }
  throw notFound(`Location (${path})`, ref);
}
