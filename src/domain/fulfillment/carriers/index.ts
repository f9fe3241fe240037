import type { Db, TxClient } from '../../../db/types.js';
import { TableCarrier } from './table.js';
import type { CarrierAdapter } from './types.js';

export type { CarrierAdapter, PurchasedLabel, Rate, RateError, RatePackage, RateQuote } from './types.js';

/** The carrier adapters a team rates with. Add real carrier integrations here. */
export function carrierAdapters(client: Db['prisma'] | TxClient, teamId: string): CarrierAdapter[] {
  return [new TableCarrier(client, teamId)];
}
