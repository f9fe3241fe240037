import { createHash } from 'node:crypto';

// Carrier platforms' tracker events, normalised: the shipment_status they mean (spec 2.7 keeps
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

export interface TrackEntry {
  status: ShipmentStatus;
  provider_status: string | null;
  message: string | null;
  occurred_at: Date;
  location: Record<string, unknown> | null;
}

export type TrackerUpdate =
  | { kind: 'tracking'; tracking_code: string; entries: TrackEntry[] }
  | {
      kind: 'refund';
      tracking_code: string | null;
      remote_id: string | null;
      remote_transaction_id: string | null;
      refund_status: 'SUBMITTED' | 'REFUNDED' | 'REJECTED';
    }
  | { kind: 'ignored' };

const EASYPOST: Record<string, ShipmentStatus> = {
  pre_transit: 'PRE_TRANSIT',
  in_transit: 'IN_TRANSIT',
  out_for_delivery: 'OUT_FOR_DELIVERY',
  delivered: 'DELIVERED',
  available_for_pickup: 'OUT_FOR_DELIVERY',
  return_to_sender: 'RETURN_TO_SENDER',
  failure: 'FAILURE',
  error: 'FAILURE',
  cancelled: 'FAILURE',
};

const SHIPPO: Record<string, ShipmentStatus> = {
  PRE_TRANSIT: 'PRE_TRANSIT',
  TRANSIT: 'IN_TRANSIT',
  DELIVERED: 'DELIVERED',
  RETURNED: 'RETURN_TO_SENDER',
  FAILURE: 'FAILURE',
};

/* eslint-disable @typescript-eslint/no-explicit-any -- platform JSON */
type Json = any;

const date = (v: unknown) => {
  const d = typeof v === 'string' || typeof v === 'number' ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? d : new Date();
};

const loc = (l: Json) =>
  l && typeof l === 'object' ? Object.fromEntries(Object.entries(l).filter(([k, v]) => k !== 'object' && v !== null)) : null;

/** An EasyPost Event (tracker.created / tracker.updated, refund.successful, …). */
export function fromEasyPost(body: Json): TrackerUpdate {
  const r = body?.result;
  if (r?.object === 'Tracker' && r.tracking_code) {
    const entries = (Array.isArray(r.tracking_details) ? r.tracking_details : []).flatMap((d: Json) => {
      const status = EASYPOST[d?.status];
      return status
        ? [
            {
              status,
              provider_status: d.status,
              message: d.message ?? null,
              occurred_at: date(d.datetime),
              location: loc(d.tracking_location),
            },
          ]
        : [];
    });
    if (!entries.length && EASYPOST[r.status]) {
      entries.push({
        status: EASYPOST[r.status]!,
        provider_status: r.status,
        message: r.status_detail ?? null,
        occurred_at: date(r.updated_at),
        location: null,
      });
    }
    return { kind: 'tracking', tracking_code: String(r.tracking_code), entries };
  }
  if (r?.object === 'Refund' || (r?.object === 'Shipment' && r.refund_status)) {
    const s = r.object === 'Refund' ? r.status : r.refund_status;
    const refund_status = s === 'refunded' ? 'REFUNDED' : s === 'rejected' || s === 'not_applicable' ? 'REJECTED' : 'SUBMITTED';
    return {
      kind: 'refund',
      tracking_code: r.tracking_code ?? null,
      remote_id: r.object === 'Refund' ? (r.shipment_id ?? null) : (r.id ?? null),
      remote_transaction_id: null,
      refund_status,
    };
  }
  return { kind: 'ignored' };
}

/** A Shippo webhook (track_updated; transaction_updated carrying a refund's outcome). */
export function fromShippo(body: Json): TrackerUpdate {
  const d = body?.data;
  if (body?.event === 'track_updated' && d?.tracking_number) {
    const history: Json[] =
      Array.isArray(d.tracking_history) && d.tracking_history.length ? d.tracking_history : [d.tracking_status].filter(Boolean);
    const entries = history.flatMap((h: Json) => {
      const base = SHIPPO[h?.status];
      const status = h?.substatus?.code === 'out_for_delivery' ? 'OUT_FOR_DELIVERY' : base;
      return status
        ? [
            {
              status,
              provider_status: h.status,
              message: h.status_details ?? null,
              occurred_at: date(h.status_date),
              location: loc(h.location),
            },
          ]
        : [];
    });
    return { kind: 'tracking', tracking_code: String(d.tracking_number), entries };
  }
  if (body?.event === 'transaction_updated' && d?.object_id && ['REFUNDED', 'REFUNDPENDING', 'REFUNDREJECTED'].includes(d.status)) {
    const refund_status = d.status === 'REFUNDED' ? 'REFUNDED' : d.status === 'REFUNDREJECTED' ? 'REJECTED' : 'SUBMITTED';
    return { kind: 'refund', tracking_code: d.tracking_number ?? null, remote_id: null, remote_transaction_id: d.object_id, refund_status };
  }
  return { kind: 'ignored' };
}

/** One tracking event is recorded once however often the platform repeats it. */
export const dedupeKey = (integrationId: string, code: string, e: TrackEntry) =>
  createHash('sha256')
    .update(JSON.stringify([integrationId, code, e.status, e.provider_status, e.message, e.occurred_at.toISOString()]))
    .digest('hex');
