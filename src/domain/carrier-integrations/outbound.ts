import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createRequire } from 'node:module';
import { invalid } from '../errors.js';
import { isAllowedHost, isPublicAddress, publicOnlyAgent } from '../webhooks/network.js';

// Outbound calls to carrier platforms follow the webhook network policy (webhooks/network.ts):
// only public addresses unless the server runs with --allow-private-webhooks (alias
// --allow-private-network), checked on the URL and again on every DNS answer of the connection.

export interface OutboundPolicy {
  /** Loopback/private destinations allowed (fos serve --allow-private-webhooks). */
  allowPrivate?: boolean;
  /** Per-provider timeout of rate requests (ms). */
  rateTimeoutMs?: number;
  /** Timeout of an address verification call (ms; default 15 s). */
  verifyTimeoutMs?: number;
}

export const PRIVATE_CARRIER_HINT =
  'must point at a public address (loopback and private addresses need fos serve --allow-private-webhooks, alias --allow-private-network)';

/** Refuses a base URL the policy does not allow (400 on body.api_base_url). */
export function checkBaseUrl(url: string, policy: OutboundPolicy, path = 'body.api_base_url'): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid(path, 'must be an absolute URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid(path, 'must be an http or https URL');
  if (u.username || u.password) throw invalid(path, 'must not contain credentials');
  if (!policy.allowPrivate && !isAllowedHost(u.hostname)) throw invalid(path, PRIVATE_CARRIER_HINT);
}

export class OutboundRefused extends Error {
  constructor(url: string) {
    super(`${new URL(url).host} is not a public address (see --allow-private-webhooks)`);
  }
}

type Fetch = typeof globalThis.fetch;

/** fetch whose connections follow the policy (Shippo's client, label downloads). */
export function policyFetch(policy: OutboundPolicy): Fetch {
  const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
  const dispatcher = policy.allowPrivate ? undefined : publicOnlyAgent();
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!policy.allowPrivate && !isAllowedHost(new URL(url).hostname)) throw new OutboundRefused(url);
    if (input instanceof Request) {
      // Shippo's client hands a Request: replay it through undici with the policy's dispatcher.
      const body = input.body ? Buffer.from(await input.arrayBuffer()) : undefined;
      return undici.fetch(url, {
        method: input.method,
        headers: [...input.headers.entries()],
        body,
        signal: input.signal,
        dispatcher,
        redirect: 'manual',
      }) as unknown as Response;
    }
    return undici.fetch(url, { ...(init as object), dispatcher, redirect: 'manual' }) as unknown as Response;
  }) as Fetch;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function publicLookup(hostname: string, options: object, callback: LookupCallback) {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    if (!list.length || list.some((a) => !isPublicAddress(a.address))) return callback(new OutboundRefused(`http://${hostname}`), []);
    return (options as { all?: boolean }).all ? callback(null, list) : callback(null, list[0]!.address, list[0]!.family);
  });
}

/** A Node http(s) agent for the policy (EasyPost's client speaks through superagent, not fetch). */
export function policyAgent(url: string, policy: OutboundPolicy): http.Agent | undefined {
  if (policy.allowPrivate) return undefined;
  const opts = { keepAlive: false, lookup: publicLookup as never };
  return url.startsWith('https:') ? new https.Agent(opts) : new http.Agent(opts);
}
