import type { CarrierDelivery, CarrierWebhooks } from '../connector.js';
import type { ShipmentStatus } from '../../../domain/carrier-integrations/index.js';
import type { TrackerUpdate } from '../types.js';
import { eventDate, eventLocation, header, hmacHex, same } from '../webhook-signature.js';

// Shippo's webhooks (track_updated; transaction_updated carrying a refund's outcome), authenticated
// by its HMAC header Shippo-Auth-Signature: t=<unix seconds>,v1=<HMAC-SHA256 hex of "<t>.<body>">,
// or by the self-generated token Shippo documents, as ?shippo_token=<secret> on the webhook URL
// (fos refuses `token` in query strings; this one is redacted from logs), for accounts without HMAC.

export function shippoSignature(secret: string, body: string, t: number) {
  return `t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`;
}

/** Signed deliveries older than this (or from the future) are refused: no replays. */
const TOLERANCE_S = 300;

export function verifyShippo(
  secret: string,
  body: string,
  signature: string | undefined,
  token: string | undefined,
  nowMs = Date.now(),
): boolean {
  if (signature) {
    const parts = Object.fromEntries(signature.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
    const t = Number(parts.t);
    if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > TOLERANCE_S || !parts.v1) return false;
    return same(parts.v1, hmacHex(secret, `${t}.${body}`));
  }
  return !!token && same(token, secret);
}

const STATUSES: Record<string, ShipmentStatus> = {
  PRE_TRANSIT: 'PRE_TRANSIT',
  TRANSIT: 'IN_TRANSIT',
  DELIVERED: 'DELIVERED',
  RETURNED: 'RETURN_TO_SENDER',
  FAILURE: 'FAILURE',
};

/* eslint-disable @typescript-eslint/no-explicit-any -- platform JSON */
type Json = any;

/** A Shippo webhook (track_updated; transaction_updated carrying a refund's outcome). */
export function fromShippo(body: Json): TrackerUpdate {
  const d = body?.data;
  if (body?.event === 'track_updated' && d?.tracking_number) {
    const history: Json[] =
      Array.isArray(d.tracking_history) && d.tracking_history.length ? d.tracking_history : [d.tracking_status].filter(Boolean);
    const entries = history.flatMap((h: Json) => {
      const base = STATUSES[h?.status];
      const status = h?.substatus?.code === 'out_for_delivery' ? 'OUT_FOR_DELIVERY' : base;
      return status
        ? [
            {
              status,
              provider_status: h.status,
              message: h.status_details ?? null,
              occurred_at: eventDate(h.status_date),
              location: eventLocation(h.location),
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

export const shippoWebhooks: CarrierWebhooks = {
  verify: (secret: string, d: CarrierDelivery) => verifyShippo(secret, d.body, header(d.headers, 'shippo-auth-signature'), d.token),
  parse: fromShippo,
};
