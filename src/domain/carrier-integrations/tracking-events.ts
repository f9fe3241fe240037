import { createHash } from 'node:crypto';
import type { TrackEntry } from '../../connectors/carriers/types.js';

// Carrier platforms' tracker events, normalized by their connectors (webhooks.parse,
// src/connectors/carriers/<name>/webhook.ts) into the shipment_status they mean (spec 2.7 keeps
// LABEL_PRINTED for a label no carrier has scanned yet) and the history entries to record.

export const SHIPMENT_STATUSES = [
  'LABEL_PRINTED',
  'PRE_TRANSIT',
  'IN_TRANSIT',
  'OUT_FOR_DELIVERY',
  'DELIVERED',
  'RETURN_TO_SENDER',
  'FAILURE',
] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

/** One tracking event is recorded once however often the platform repeats it. */
export const dedupeKey = (integrationId: string, code: string, e: TrackEntry) =>
  createHash('sha256')
    .update(JSON.stringify([integrationId, code, e.status, e.provider_status, e.message, e.occurred_at.toISOString()]))
    .digest('hex');
