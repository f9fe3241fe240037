import { createHmac, randomBytes } from 'node:crypto';

// The signature of webhook deliveries (docs/webhooks.md; the server's is
// src/domain/webhooks/signature.ts), for `fos webhooks listen --forward-to`: a receiver checks
// forwarded events exactly as it checks real deliveries.
//   fos-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>

export const SIGNATURE_HEADER = 'fos-signature';
export const EVENT_ID_HEADER = 'fos-event-id';
export const EVENT_TYPE_HEADER = 'fos-event-type';

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

export function signWebhook(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
