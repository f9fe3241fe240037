import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookHeaders } from './connector.js';

// What the carrier connectors' webhook checks share, on the raw body before anything is read:
// one header's value, a constant-time comparison, and the hex HMAC-SHA256 with the webhook secret
// NFKD-normalized (what @easypost/api's Utils.validateWebhook does; Shippo's HMAC is the same
// digest over "<t>.<body>"). Each platform's header and format: easypost/webhook.ts, shippo/webhook.ts.

export const header = (h: WebhookHeaders, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

export const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export const hmacHex = (secret: string, data: string) =>
  createHmac('sha256', Buffer.from(secret.normalize('NFKD'), 'utf8'))
    .update(data, 'utf8')
    .digest('hex');

/** A platform's event time (ISO text or epoch), or now when it sent none fos can read. */
export const eventDate = (v: unknown) => {
  const d = typeof v === 'string' || typeof v === 'number' ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? d : new Date();
};

/** A platform's event location without its null members and object tag. */
export const eventLocation = (l: unknown): Record<string, unknown> | null =>
  l && typeof l === 'object' ? Object.fromEntries(Object.entries(l).filter(([k, v]) => k !== 'object' && v !== null)) : null;
