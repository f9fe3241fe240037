import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Webhook signatures (docs/webhooks.md). Header:
//   fos-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
// The HMAC key is the whole secret string as shown once on creation ("whsec_…").

export const SIGNATURE_HEADER = 'fos-signature';
export const EVENT_ID_HEADER = 'fos-event-id';
export const EVENT_TYPE_HEADER = 'fos-event-type';

/** Default tolerance for verifySignature: rejects replays of old deliveries. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export const generateSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

export const computeSignature = (secret: string, timestamp: number, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, body)}`;
}

/** What a receiver does: parse the header, recompute, compare in constant time, check the age. */
export function verifySignature(
  secret: string,
  body: string,
  header: string | undefined,
  { toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS, now = Date.now() } = {},
): boolean {
  if (!header) return false;
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const [k, v] = item.split('=', 2).map((s) => s.trim());
    if (k && v) parts.set(k, [...(parts.get(k) ?? []), v]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(computeSignature(secret, t, body), 'hex');
  return (parts.get('v1') ?? []).some((sig) => {
    const given = Buffer.from(sig, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
