import type { CarrierIntegration, Db } from '../../../db/types.js';
import { BUILT_IN_TABLE } from '../../carrier-integrations/integrations.js';
import type { OutboundPolicy } from '../../carrier-integrations/outbound.js';
import { teamIntegrations } from '../../carrier-integrations/store.js';
import { conflict } from '../../errors.js';
import { EasyPostCarrier } from './easypost.js';
import { ShippoCarrier } from './shippo.js';
import { TableCarrier } from './table.js';
import type { CarrierAdapter } from './types.js';

export type { CarrierAdapter, PurchasedLabel, Rate, RateError, RatePackage, RateQuote } from './types.js';

/** The adapter of one integration row. */
export function adapterOf(db: Db, row: CarrierIntegration, policy: OutboundPolicy): CarrierAdapter {
  if (row.type === 'EASYPOST') return new EasyPostCarrier(row, policy);
  if (row.type === 'SHIPPO') return new ShippoCarrier(row, policy);
  return new TableCarrier(db, row.team_id, { id: row.id, name: row.name });
}

const servesWarehouse = (row: CarrierIntegration, warehouseId: string | null) =>
  !Array.isArray(row.warehouse_ids) ||
  !(row.warehouse_ids as unknown[]).length ||
  (!!warehouseId && (row.warehouse_ids as string[]).includes(warehouseId));

/**
 * The carrier adapters a package is rated with: the team's enabled integrations serving its
 * warehouse (an integration without warehouse_ids serves all). A team that never connected an
 * integration rates with the built-in table (the demo's default, a test carrier).
 */
export async function carrierAdapters(
  db: Db,
  teamId: string,
  warehouseId: string | null,
  policy: OutboundPolicy = {},
): Promise<CarrierAdapter[]> {
  const rows = await teamIntegrations(db, teamId);
  if (!rows.length) return [new TableCarrier(db, teamId, BUILT_IN_TABLE)];
  return rows.filter((r) => r.enabled && servesWarehouse(r, warehouseId)).map((r) => adapterOf(db, r, policy));
}

/** The adapter of a label's integration (void, reconcile); null for the built-in table. */
export async function adapterById(db: Db, teamId: string, integrationId: string | null, policy: OutboundPolicy = {}) {
  if (!integrationId || integrationId === BUILT_IN_TABLE.id) return null;
  const row = await db.prisma.carrierIntegration.findFirst({ where: { id: integrationId, team_id: teamId } });
  // Disconnected (credentials erased): the platform cannot be asked, and acting without it would
  // void a label it never refunds or lose one it sold. Reconnecting lets the same call through.
  if (row && row.type !== 'TABLE' && !row.credentials_sealed)
    throw conflict(
      `Carrier integration "${row.name}" (${row.id}) is disconnected, so ${row.type === 'EASYPOST' ? 'EasyPost' : 'Shippo'} cannot be asked: ` +
        `reconnect it with its API key (fos carriers update ${row.id} --api-key …) and retry.`,
    );
  return row ? adapterOf(db, row, policy) : null;
}
