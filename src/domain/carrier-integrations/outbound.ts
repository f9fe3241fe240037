import { invalid } from '../errors.js';
import { isAllowedHost } from '../../net/network.js';
import { outboundFetch } from '../../net/adapters.js';

// Outbound calls to carrier platforms go through the outbound layer (src/net/outbound.ts: its
// deadlines, retries and records) and follow the network policy (src/net/network.ts): only
// public addresses unless the server runs with --allow-private-webhooks (alias
// --allow-private-network), checked on the URL and again on every DNS answer of the connection.

export interface OutboundPolicy {
  /** Loopback/private destinations allowed (fos serve --allow-private-webhooks). */
  allowPrivate?: boolean;
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

/** fetch over the outbound layer (src/net) for a carrier platform (label downloads). */
export function policyFetch(policy: OutboundPolicy, platform = 'carrier'): Fetch {
  return outboundFetch({ platform, allowPrivate: policy.allowPrivate });
}
