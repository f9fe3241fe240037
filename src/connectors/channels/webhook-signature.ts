import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Headers } from './connector.js';

// Webhook checks the connectors share: one header's value, and the base64 HMAC-SHA256 of the raw
// body with the shop's secret (Shopify's X-Shopify-Hmac-Sha256, WooCommerce's X-WC-Webhook-Signature).

export const header = (h: Headers, name: string) => {
  const v = h[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? String(v[0]) : null;
};

export function verifyPlatformSignature(secret: string, body: Buffer, signature: string | null): boolean {
  if (!signature) return false;
  const want = createHmac('sha256', secret).update(body).digest();
  const got = Buffer.from(signature, 'base64');
  return got.length === want.length && timingSafeEqual(got, want);
}

/** A shared secret sent back verbatim in a header (BigCommerce's custom hook headers), compared in constant time. */
export function sameSecret(secret: string, sent: string | null): boolean {
  if (!sent) return false;
  const [a, b] = [Buffer.from(secret), Buffer.from(sent)];
  return a.length === b.length && timingSafeEqual(a, b);
}
