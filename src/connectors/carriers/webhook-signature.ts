import { createHmac, timingSafeEqual } from 'node:crypto';

// Signatures of carrier platforms' webhooks, checked on the raw body before anything is read.
// EasyPost: X-Hmac-Signature: hmac-sha256-hex=<HMAC-SHA256 of the body, key = the webhook secret
// NFKD-normalised> (what @easypost/api's Utils.validateWebhook checks). Shippo: its HMAC header
// Shippo-Auth-Signature: t=<unix seconds>,v1=<HMAC-SHA256 hex of "<t>.<body>">, or the
// self-generated token Shippo documents, as ?shippo_token=<secret> on the webhook URL (fos refuses
// `token` in query strings; this one is redacted from logs), for accounts without HMAC.

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const hmacHex = (secret: string, data: string) =>
  createHmac('sha256', Buffer.from(secret.normalize('NFKD'), 'utf8'))
    .update(data, 'utf8')
    .digest('hex');

export function easypostSignature(secret: string, body: string) {
  return `hmac-sha256-hex=${hmacHex(secret, body)}`;
}

export function verifyEasyPost(secret: string, body: string, header: string | undefined): boolean {
  return !!header && same(header, easypostSignature(secret, body));
}

export function shippoSignature(secret: string, body: string, t: number) {
  return `t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`;
}

/** Signed deliveries older than this (or from the future) are refused: no replays. */
const TOLERANCE_S = 300;

export function verifyShippo(
  secret: string,
  body: string,
  header: string | undefined,
  token: string | undefined,
  nowMs = Date.now(),
): boolean {
  if (header) {
    const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
    const t = Number(parts.t);
    if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > TOLERANCE_S || !parts.v1) return false;
    return same(parts.v1, hmacHex(secret, `${t}.${body}`));
  }
  return !!token && same(token, secret);
}
