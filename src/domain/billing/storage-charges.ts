import type { Statements } from '../../db/statements.js';
import type { Charge, FulfillmentDelegation, StorageSnapshot, TxClient } from '../../db/types.js';
import { announceCharge, jsonPricing } from '../charges/index.js';
import { insertCharge } from '../charges/index.js';
import { storagePrice } from './storage-price.js';
import { chargeRow, insertBilled } from '../charges/index.js';
import { priceStorage } from '../charges/index.js';
import { versionAt } from '../charges/index.js';
import { linkCharge } from './store/storage.js';

// The STORAGE charges of a day's snapshots, inside the snapshot's transaction: one per merchant and
// location type (per warehouse), priced DAILY by the merchant's rate card (storagePrice). A
// snapshot without an active delegation or a storage rate stays unbilled (charge_id null).

export interface DayContext {
  warehouse: { id: string; name: string; time_zone: string };
  date: string;
  /** The end of the day in the warehouse's zone (the next local midnight): the ledger as it stood then. */
  cutoff: Date;
  /** The day's last instant (storagePricedAt): the versioned card in force then prices it. */
  pricedAt: Date;
  delegations: Map<string, FulfillmentDelegation>;
  typeNames: Map<string, string>;
}

export async function billSnapshots(tx: TxClient, st: Statements, ctx: DayContext, snaps: StorageSnapshot[], now: Date): Promise<Charge[]> {
  const charges: Charge[] = [];
  for (const s of snaps) {
    const delegation = ctx.delegations.get(s.merchant_team_id);
    if (!delegation?.active) continue;
    if (delegation.rate_card_id) {
      const charge = await billByVersion(tx, st, ctx, s, delegation, now);
      if (charge) charges.push(charge);
      continue;
    }
    const typeId = s.location_type_id || null;
    const price = await storagePrice(tx, delegation, {
      location_type_id: typeId,
      locations: s.locations,
      units: s.units,
      merchant_team_id: s.merchant_team_id,
      warehouse_id: s.warehouse_id,
      date: s.date,
    });
    if (!price) continue;
    const typeName = typeId ? (ctx.typeNames.get(typeId) ?? null) : null;
    const json = jsonPricing(price.card, { category: 'STORAGE', origination: 'MANUAL', shipping_label: null, order: null }, price.pricing);
    const storage = { date: s.date, time_zone: ctx.warehouse.time_zone, locations: s.locations, units: s.units, snapshot_id: s.id };
    const config = { ...(json.pricing_config as object), origination: 'SCHEDULE', storage };
    const trace = json.pricing_trace as { pricing_config: object };
    const charge = await insertCharge(
      st,
      {
        name: `Storage ${s.date}${typeName ? ` · ${typeName}` : ''}`,
        description: `${s.locations} location(s), ${s.units} unit(s) on hand at the end of ${s.date} (${ctx.warehouse.time_zone}); billed per ${price.unit === 'locations' ? 'location' : 'unit'}`,
        category: 'STORAGE',
        currency: price.card.currency,
        quantity: price.quantity,
        calculated_amount: price.pricing.calculated_amount,
        original_amount: price.pricing.original_amount,
        merchant_team_id: s.merchant_team_id,
        fulfiller_team_id: s.team_id,
        fulfillment_delegation_id: delegation.id,
        warehouse_id: ctx.warehouse.id,
        warehouse_name: ctx.warehouse.name,
        location_type_id: typeId,
        location_type_name: typeName,
        rate_period: 'DAILY',
        pricing_config: config,
        pricing_trace: { ...trace, pricing_config: { ...trace.pricing_config, origination: 'SCHEDULE', storage } },
      },
      now,
    );
    await linkCharge(st, s.id, charge.id);
    charges.push(await announceCharge(tx, charge));
  }
  return charges;
}

/**
 * A snapshot of a merchant whose delegation has a versioned card (docs/billing.md "Fee rules"): its
 * STORAGE fee of the version in force at the day's end, billed once (key STORAGE:<snapshot id>).
 */
async function billByVersion(tx: TxClient, st: Statements, ctx: DayContext, s: StorageSnapshot, d: FulfillmentDelegation, now: Date) {
  const version = await versionAt(tx, d.rate_card_id!, ctx.pricedAt);
  if (!version) return null;
  const typeId = s.location_type_id || null;
  const pricing = priceStorage(version, {
    location_type: typeId ?? '',
    units: s.units,
    locations: s.locations,
    merchant: s.merchant_team_id,
    warehouse: s.warehouse_id,
    date: s.date,
  });
  if (!pricing.matched) return null;
  const typeName = typeId ? (ctx.typeNames.get(typeId) ?? null) : null;
  const row = chargeRow(
    d,
    {
      key: `STORAGE:${s.id}`,
      event: pricing.event,
      name: `Storage ${s.date}${typeName ? ` · ${typeName}` : ''}`,
      description: `${s.locations} location(s), ${s.units} unit(s) on hand at the end of ${s.date} (${ctx.warehouse.time_zone})`,
      links: {
        warehouse_id: ctx.warehouse.id,
        warehouse_name: ctx.warehouse.name,
        location_type_id: typeId,
        location_type_name: typeName,
        rate_period: 'DAILY',
      },
    },
    pricing,
  );
  const storage = { date: s.date, time_zone: ctx.warehouse.time_zone, locations: s.locations, units: s.units, snapshot_id: s.id };
  row.pricing_config = { ...(row.pricing_config as object), origination: 'SCHEDULE', storage };
  const [charge] = await insertBilled(tx, st, [row], now);
  if (charge) await linkCharge(st, s.id, charge.id);
  return charge ?? null;
}
