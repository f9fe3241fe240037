import type { CarrierIntegration, Db } from '../../../db/types.js';
import { BUILT_IN_TABLE, carrierConnector } from '../../../connectors/carriers/registry.js';
import type { CarrierAdapter } from '../../../connectors/carriers/types.js';
import { accountOf } from '../../carrier-integrations/index.js';
import type { OutboundPolicy } from '../../carrier-integrations/index.js';
import { teamIntegrations } from '../../carrier-integrations/index.js';
import { conflict } from '../../errors.js';
import { findTeamIntegration } from '../store/carriers.js';

export type { CarrierAdapter, PurchasedLabel, Rate, RateError, RatePackage, RateQuote } from '../../../connectors/carriers/types.js';

/** The adapter of one integration row, from its type's connector. */
export function adapterOf(db: Db, row: CarrierIntegration, policy: OutboundPolicy): CarrierAdapter {
  return carrierConnector(row.type).open(accountOf(db, row, policy));
}

/** The built-in rate table of a team without integration rows. */
const builtInTable = (db: Db, teamId: string): CarrierAdapter =>
  carrierConnector(BUILT_IN_TABLE.type).open({
    db,
    team_id: teamId,
    id: BUILT_IN_TABLE.id,
    name: BUILT_IN_TABLE.name,
    credentials: null,
    api_base_url: null,
    enabled_carriers: null,
    is_test: true,
    policy: {},
  });

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
  if (!rows.length) return [builtInTable(db, teamId)];
  return rows.filter((r) => r.enabled && servesWarehouse(r, warehouseId)).map((r) => adapterOf(db, r, policy));
}

/** The adapter of a label's integration (void, reconcile); null for the built-in table. */
export async function adapterById(db: Db, teamId: string, integrationId: string | null, policy: OutboundPolicy = {}) {
  if (!integrationId || integrationId === BUILT_IN_TABLE.id) return null;
  const row = await findTeamIntegration(db.prisma, teamId, integrationId);
  if (!row) return null;
  const connector = carrierConnector(row.type);
  // Disconnected (credentials erased): the platform cannot be asked, and acting without it would
  // void a label it never refunds or lose one it sold. Reconnecting lets the same call through.
  if (connector.credentialFields.length && !row.credentials_sealed)
    throw conflict(
      `Carrier integration "${row.name}" (${row.id}) is disconnected, so ${connector.label} cannot be asked: ` +
        `reconnect it with its API key (fos carriers update ${row.id} --api-key …) and retry.`,
    );
  return adapterOf(db, row, policy);
}
