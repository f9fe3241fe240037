import type { CarrierDelivery, CarrierWebhooks } from '../connector.js';
import type { ShipmentStatus } from '../../../domain/carrier-integrations/index.js';
import type { TrackerUpdate } from '../types.js';
import { eventDate, eventLocation, header, hmacHex, same } from '../webhook-signature.js';
import { refundState } from './carrier.js';

// EasyPost's webhooks: each Event is signed with X-Hmac-Signature: hmac-sha256-hex=<HMAC-SHA256
// of the body, key = the webhook secret NFKD-normalized>; tracker.created / tracker.updated carry
// a Tracker (tracking_details), refund events a Refund or a Shipment with its refund_status.

export function easypostSignature(secret: string, body: string) {
  return `hmac-sha256-hex=${hmacHex(secret, body)}`;
}

export function verifyEasyPost(secret: string, body: string, signature: string | undefined): boolean {
  return !!signature && same(signature, easypostSignature(secret, body));
}

const STATUSES: Record<string, ShipmentStatus> = {
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

/* eslint-disable @typescript-eslint/no-explicit-any -- platform JSON */
type Json = any;

/** An EasyPost Event (tracker.created / tracker.updated, refund.successful, …). */
export function fromEasyPost(body: Json): TrackerUpdate {
  const r = body?.result;
  if (r?.object === 'Tracker' && r.tracking_code) {
    const entries = (Array.isArray(r.tracking_details) ? r.tracking_details : []).flatMap((d: Json) => {
      const status = STATUSES[d?.status];
      return status
        ? [
            {
              status,
              provider_status: d.status,
              message: d.message ?? null,
              occurred_at: eventDate(d.datetime),
              location: eventLocation(d.tracking_location),
            },
          ]
        : [];
    });
    if (!entries.length && STATUSES[r.status]) {
      entries.push({
        status: STATUSES[r.status]!,
        provider_status: r.status,
        message: r.status_detail ?? null,
        occurred_at: eventDate(r.updated_at),
        location: null,
      });
    }
    return { kind: 'tracking', tracking_code: String(r.tracking_code), entries };
  }
  if (r?.object === 'Refund' || (r?.object === 'Shipment' && r.refund_status)) {
    return {
      kind: 'refund',
      tracking_code: r.tracking_code ?? null,
      remote_id: r.object === 'Refund' ? (r.shipment_id ?? null) : (r.id ?? null),
      remote_transaction_id: null,
      refund_status: refundState(r.object === 'Refund' ? r.status : r.refund_status),
    };
  }
  return { kind: 'ignored' };
}

export const easypostWebhooks: CarrierWebhooks = {
  verify: (secret: string, d: CarrierDelivery) => verifyEasyPost(secret, d.body, header(d.headers, 'x-hmac-signature')),
  parse: fromEasyPost,
};
