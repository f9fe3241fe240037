import type { TxClient } from '../../db/types.js';
import { parseRateCard, priceJsonCardStorage, type Pricing, type RateCard } from '../charges/index.js';

// Daily storage priced by a delegation's older JSON card (docs/billing.md "Storage"); a versioned
// card is priced in storage-charges.ts by the version in force at the day's end. A location-type
// rate is per occupied location a day; the card's general rate is per unit on hand a day.

export interface StorageDay {
  location_type_id: string | null;
  locations: number;
  units: number;
  merchant_team_id: string;
  warehouse_id: string;
  /** The warehouse's local day billed, YYYY-MM-DD. */
  date: string;
}

export interface StoragePrice {
  card: RateCard;
  pricing: Pricing;
  /** What was billed: locations for a location-type rate, else units. */
  quantity: number;
  unit: 'locations' | 'units';
}

/** The DAILY storage price of one merchant's location type on a day, or null when the card has none. */
export async function storagePrice(
  _tx: TxClient,
  delegation: { id: string; rate_card: unknown },
  day: StorageDay,
): Promise<StoragePrice | null> {
  const card = parseRateCard(delegation.rate_card);
  if (!card) return null;
  const typeId = day.location_type_id ?? 'none';
  const byLocation = priceJsonCardStorage(card, { location_type_id: typeId, rate_period: 'DAILY', quantity: day.locations });
  if (byLocation.matched && byLocation.pricing_step_id?.startsWith('storage.by_location_type.')) {
    return { card, pricing: byLocation, quantity: day.locations, unit: 'locations' };
  }
  const byUnit = priceJsonCardStorage(card, { location_type_id: typeId, rate_period: 'DAILY', quantity: day.units });
  return byUnit.matched ? { card, pricing: byUnit, quantity: day.units, unit: 'units' } : null;
}
