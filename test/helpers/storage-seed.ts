// Stock history for daily storage tests (docs/billing.md "Storage"): a merchant's product in bins
// of a warehouse, each bin's stock row and the ledger movement that put it there, dated `at`, so a
// snapshot of any day after `at` counts it and a day before does not.

import type { Db } from '../../src/db/types.js';
import { createLocationType, createTeam, createDelegation } from '../../src/domain/teams/teams.js';

let seq = 0;

export async function storageWarehouse(db: Db, teamId: string, time_zone = 'UTC', created_at = new Date('2025-01-01T00:00:00Z')) {
  return db.prisma.warehouse.create({ data: { team_id: teamId, name: `WH ${++seq}`, time_zone, created_at } });
}

export async function locationType(db: Db, teamId: string, name: string) {
  return createLocationType(db, { team_id: teamId, name: `${name} ${++seq}` });
}

export async function storageMerchant(db: Db, fulfillerTeamId: string, rate_card?: unknown) {
  const team = await createTeam(db, { name: `Storage Merchant ${++seq}`, kind: 'MERCHANT' });
  const delegation = await createDelegation(db, { merchant_team_id: team.id, fulfiller_team_id: fulfillerTeamId, rate_card });
  return { teamId: team.id, delegationId: delegation.id };
}

/** `units` of a new product of the merchant in each of `bins` new locations (of `typeId`, or none), received at `at`. */
export async function stockBins(
  db: Db,
  w: { id: string; team_id: string },
  merchantTeamId: string,
  bins: { count: number; units: number; typeId?: string | null; at: Date },
) {
  const n = ++seq;
  const product = await db.prisma.product.create({
    data: {
      team_id: merchantTeamId,
      merchant_team_id: merchantTeamId,
      fulfiller_team_id: w.team_id,
      name: `P${n}`,
      sku: `SKU-ST-${n}`,
      measurement_unit: 'MM',
      weight_unit: 'G',
    },
  });
  for (let i = 0; i < bins.count; i++) {
    const loc = await db.prisma.location.create({
      data: { team_id: w.team_id, warehouse_id: w.id, name: `B-${n}-${i}`, location_type_id: bins.typeId ?? null },
    });
    const stock = await db.prisma.locationStock.create({
      data: { product_id: product.id, warehouse_id: w.id, location_id: loc.id, on_hand: bins.units, created_at: bins.at },
    });
    await db.prisma.inventoryMovement.create({
      data: {
        product_id: product.id,
        warehouse_id: w.id,
        bucket: 'on_hand',
        delta: bins.units,
        kind: 'RECEIVED',
        location_id: loc.id,
        location_stock_id: stock.id,
        created_at: bins.at,
      },
    });
  }
  return product;
}
