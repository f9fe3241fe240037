import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { createRequire } from 'node:module';
import type { Agent } from 'undici';

// Webhook network policy: endpoints may only reach public unicast addresses, so a MANAGE_WEBHOOKS
// key cannot probe loopback, private, link-local (cloud metadata), unique-local, CGNAT or other
// special ranges. Checked on the URL at create/update and again on every delivery against the
// addresses DNS returns, on the very connection used (no DNS-rebinding bypass). `fos serve
// --allow-private-webhooks` turns the policy off for receivers run locally.

export const PRIVATE_WEBHOOK_HINT =
  'must point at a public address (loopback, private, link-local, unique-local, CGNAT, metadata and other special addresses are refused; start the server with --allow-private-webhooks for local receivers)';

/** True for a public unicast IPv4/IPv6 address; IPv4-mapped IPv6 is judged as its IPv4 address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

/**
 * Whether a URL's host may be a webhook destination before any DNS lookup. WHATWG URL parsing
 * already canonicalises odd IPv4 spellings (2130706433, 127.1, 0x7f.1, 0177.0.0.1 -> 127.0.0.1).
 */
export function isAllowedHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (ipaddr.isValid(host)) return isPublicAddress(host);
  return host !== 'localhost' && !host.endsWith('.localhost') && host.includes('.');
}

export class DestinationRefused extends Error {
  constructor() {
    super('destination not allowed');
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails when any resolved address is not public. */
export function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback) {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    if (!list.length || list.some((a) => !isPublicAddress(a.address))) return callback(new DestinationRefused(), []);
    const all = (options as { all?: boolean }).all;
    return all ? callback(null, list) : callback(null, list[0]!.address, list[0]!.family);
  });
}

/** An undici dispatcher whose connections only reach public addresses (checked after DNS). */
export function publicOnlyAgent(): Agent {
  const undici = createRequire(import.meta.url)('undici') as typeof import('undici'); // see fetchSender
  return new undici.Agent({ connect: { lookup: publicOnlyLookup as never } });
}
