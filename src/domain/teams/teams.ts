import { transaction } from '../../db/tx.js';
import { ensureDefaultLocation } from '../warehouses/index.js';
import type { Db } from '../../db/types.js';
import { LABEL_FORMATS, type LabelFormat } from '../../contract/enums.js';
import { conflict, invalid, notFound } from '../errors.js';
import { isUniqueViolation } from '../../db/client.js';
import { checkTimeZone } from '../warehouses/index.js';
import * as store from './store.js';

// Teams, delegations and places. Managed by the server-side `fos admin` commands, which work
// on the database directly; the HTTP API only reads them through records that reference them.

export type TeamKind = 'FULFILLER' | 'MERCHANT';
export type MeasurementSystem = 'METRIC' | 'IMPERIAL';

export const unitsOf = (system: MeasurementSystem) =>
  system === 'IMPERIAL' ? { measurement_unit: 'IN', weight_unit: 'LB' } : { measurement_unit: 'MM', weight_unit: 'G' };

// Names identify teams and places to people (and in --role lookups): a blank one is a mistake.
function assertName(name: string) {
  if (!name.trim()) throw invalid('name', 'must not be empty');
}

export async function createTeam(db: Db, input: { name: string; kind: TeamKind; measurement_system?: MeasurementSystem }) {
  assertName(input.name);
  return store.insertTeam(db.prisma, { name: input.name, kind: input.kind, measurement_system: input.measurement_system ?? 'METRIC' });
}

export function listTeams(db: Db) {
  return store.findTeams(db.prisma);
}

export async function getTeam(db: Db, id: string) {
  const team = await store.findTeam(db.prisma, id);
  if (!team) throw notFound('Team', id);
  return team;
}

export async function createDelegation(db: Db, input: { merchant_team_id: string; fulfiller_team_id: string; rate_card?: unknown }) {
  const [merchant, fulfiller] = await Promise.all([getTeam(db, input.merchant_team_id), getTeam(db, input.fulfiller_team_id)]);
  if (merchant.kind !== 'MERCHANT') throw invalid('merchant_team_id', 'must name a MERCHANT team');
  if (fulfiller.kind !== 'FULFILLER') throw invalid('fulfiller_team_id', 'must name a FULFILLER team');
  try {
    return await store.insertDelegation(db.prisma, {
      merchant_team_id: merchant.id,
      fulfiller_team_id: fulfiller.id,
      rate_card: (input.rate_card ?? undefined) as never,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('These teams already have a fulfillment delegation.');
    throw err;
  }
}

export function listDelegations(db: Db, teamId?: string) {
  return store.findDelegationsOf(db.prisma, teamId);
}

async function fulfillerTeam(db: Db, teamId: string) {
  const team = await getTeam(db, teamId);
  if (team.kind !== 'FULFILLER') throw invalid('team_id', 'must name a FULFILLER team');
  return team;
}

export async function createWarehouse(
  db: Db,
  input: {
    team_id: string;
    name: string;
    address1?: string;
    city?: string;
    state?: string;
    zip?: string;
    country?: string;
    label_format?: string;
    time_zone?: string;
  },
) {
  assertName(input.name);
  const label_format = labelFormat(input.label_format);
  if (input.time_zone !== undefined) input = { ...input, time_zone: checkTimeZone(input.time_zone, 'time_zone') };
  await fulfillerTeam(db, input.team_id);
  // With its default location (issue 28), where stock goes when no bin is named.
  return transaction(db, async (tx) => {
    const warehouse = await store.insertWarehouse(tx, { ...input, label_format });
    await ensureDefaultLocation(tx, warehouse.id);
    return warehouse;
  });
}

/** PDF or ZPL, any case; the default document of labels bought for this warehouse's packages. */
function labelFormat(value: string | undefined): LabelFormat {
  const f = (value ?? 'PDF').toUpperCase();
  if (!(LABEL_FORMATS as readonly string[]).includes(f)) throw invalid('label_format', `must be one of ${LABEL_FORMATS.join(', ')}`);
  return f as LabelFormat;
}

/** Changes a warehouse's default label format. */
export async function setWarehouseLabelFormat(db: Db, id: string, value: string) {
  const label_format = labelFormat(value);
  const { count } = await store.updateWarehouse(db.prisma, id, { label_format });
  if (!count) throw notFound('Warehouse', id);
  return store.findWarehouseOrThrow(db.prisma, id);
}

/** `fos admin warehouse time-zone <id> <zone>`: where the warehouse's day ends (daily storage). */
export async function setWarehouseTimeZone(db: Db, id: string, zone: string) {
  const { count } = await store.updateWarehouse(db.prisma, id, { time_zone: checkTimeZone(zone, 'time_zone') });
  if (!count) throw notFound('Warehouse', id);
  return store.findWarehouseOrThrow(db.prisma, id);
}

export function listWarehouses(db: Db, teamId?: string) {
  return store.findWarehouses(db.prisma, teamId);
}

export async function createLocationType(db: Db, input: { team_id: string; name: string }) {
  assertName(input.name);
  await fulfillerTeam(db, input.team_id);
  return store.insertLocationType(db.prisma, input);
}

export function listLocationTypes(db: Db, teamId?: string) {
  return store.findLocationTypes(db.prisma, teamId);
}
