import { dateOrNull } from '../../db/dialect.js';
import { readsOf } from '../../db/reads.js';
import type { CarrierIntegration, CarrierRate, Db, Prisma, TxClient } from '../../db/types.js';

// The carrier integrations' data access (issues 36 and 38). The reads a label's rating makes
// (fulfillment/labels.ts, CHEAPEST / FASTEST): the team's integrations and its rate table, as
// hand-written reads on the prepared-statement path (src/db/reads.ts) rather than Prisma's client
// (issue 36: a rated label's reads and their garbage were a millisecond of the fulfillment's
// server CPU); rows are typed here as Prisma types them. Then the integrations' own rows and the
// address verifications, through Prisma (the end of this file).

/** The team's carrier integrations, oldest first (every column). */
export async function teamIntegrations(db: Db, teamId: string): Promise<CarrierIntegration[]> {
  const reads = readsOf(db);
  const d = reads.dialect;
  const rows = await reads.all<Record<string, unknown>>(
    `SELECT * FROM "carrier_integrations" WHERE "team_id" = ? ORDER BY "created_at", "id"`,
    [teamId],
  );
  return rows.map(
    (row) =>
      ({
        ...row,
        warehouse_ids: d.json(row.warehouse_ids),
        enabled_carriers: d.json(row.enabled_carriers),
        has_webhook_secret: d.bool(row.has_webhook_secret),
        enabled: d.bool(row.enabled),
        is_test: d.bool(row.is_test),
        disabled_at: dateOrNull(d, row.disabled_at),
        created_at: dateOrNull(d, row.created_at),
        updated_at: dateOrNull(d, row.updated_at),
      }) as CarrierIntegration,
  );
}

/** The team's rate table (the built-in table carrier's rows), cheapest first. */
export async function teamCarrierRates(db: Db, teamId: string): Promise<CarrierRate[]> {
  const reads = readsOf(db);
  const d = reads.dialect;
  const rows = await reads.all<Record<string, unknown>>(`SELECT * FROM "carrier_rates" WHERE "team_id" = ? ORDER BY "amount", "id"`, [
    teamId,
  ]);
  return rows.map(
    (row) =>
      ({
        ...row,
        countries: d.json(row.countries),
        delivery_date_guaranteed: d.bool(row.delivery_date_guaranteed),
        created_at: dateOrNull(d, row.created_at),
        updated_at: dateOrNull(d, row.updated_at),
      }) as CarrierRate,
  );
}

// Integrations and address verifications, through Prisma.

type Client = Db['prisma'] | TxClient;

export function countTeamWarehousesIn(client: Client, teamId: string, ids: string[]) {
  return client.warehouse.count({ where: { team_id: teamId, id: { in: ids } } });
}

export function insertIntegration(tx: TxClient, data: Prisma.CarrierIntegrationUncheckedCreateInput) {
  return tx.carrierIntegration.create({ data });
}

export function updateIntegrationRow(tx: TxClient, id: string, data: Prisma.CarrierIntegrationUpdateInput) {
  return tx.carrierIntegration.update({ where: { id }, data });
}

export function findTeamIntegration(client: Client, teamId: string, id: string) {
  return client.carrierIntegration.findFirst({ where: { id, team_id: teamId } });
}

export function countTeamIntegrations(client: Client, teamId: string) {
  return client.carrierIntegration.count({ where: { team_id: teamId } });
}

/** One page of integrations (pageArgs' window). */
export function findIntegrationPage(
  client: Client,
  window: { where: Prisma.CarrierIntegrationWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.carrierIntegration.findMany(window);
}

/** Updates the team's integration; the count changed (0: not the team's). */
export function updateTeamIntegration(client: Client, teamId: string, id: string, data: Prisma.CarrierIntegrationUpdateManyMutationInput) {
  return client.carrierIntegration.updateMany({ where: { id, team_id: teamId }, data });
}

/** The team's oldest enabled integration with credentials of one of these types (an address verifier). */
export function findVerifier(client: Client, teamId: string, types: Prisma.CarrierIntegrationWhereInput['type']) {
  return client.carrierIntegration.findFirst({
    where: { team_id: teamId, type: types, enabled: true, credentials_sealed: { not: null } },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}

export function findCachedVerification(client: Client, teamId: string, hash: string) {
  return client.addressVerification.findUnique({ where: { team_id_address_hash: { team_id: teamId, address_hash: hash } } });
}

/** The verification cached (a lazy PrismaPromise: it runs when awaited or caught). */
export function insertVerification(client: Client, data: Prisma.AddressVerificationUncheckedCreateInput) {
  return client.addressVerification.create({ data });
}

export function findTeamOrder(client: Client, teamId: string, orderId: string) {
  return client.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId } });
}

/** Records the verification on the order unless it is locked or already has this address's (compare-and-set); the count. */
export function recordOrderVerification(tx: TxClient, orderId: string, hash: string, data: Prisma.OrderUpdateManyMutationInput) {
  return tx.order.updateMany({
    where: { id: orderId, lock_address: false, OR: [{ address_hash: null }, { address_hash: { not: hash } }] },
    data,
  });
}

export function countActiveAddressHolds(tx: TxClient, orderId: string) {
  return tx.orderFulfillmentHold.count({ where: { order_id: orderId, active: true, reason: 'ADDRESS_VERIFICATION_FAILED' } });
}
