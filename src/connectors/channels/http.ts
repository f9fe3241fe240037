import { DestinationRefused, isAllowedHost } from '../../net/network.js';
import { axiosAdapter, outboundFetch } from '../../net/adapters.js';

// Outbound calls to sales-channel platforms follow the webhook network policy
// (src/net/network.ts): only public addresses unless `fos serve
// --allow-private-network` (alias of --allow-private-webhooks) says otherwise. Both official
// clients are handed the outbound layer (src/net/outbound.ts) as their transport: Shopify's as a
// fetch (customFetchApi), WooCommerce's as axios's adapter. Its deadline for these calls is
// 'push' (FOS_DEADLINE_PUSH_MS, 15 s); reads are retried, mutations never.

export interface ChannelEnv {
  /** Reach loopback/private addresses too (fos serve --allow-private-network; tests). */
  allowPrivate?: boolean;
  /** fos's public origin (https://fos.example), for the webhooks a connector registers at connect. */
  origin?: string;
}

/** A platform call that failed; `permanent` ones are not retried (bad credentials, refused input). */
export class ChannelCallError extends Error {
  override name = 'ChannelCallError';
  constructor(
    message: string,
    readonly permanent = false,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** Throws when the URL's host is refused by the policy before any connection. */
export function assertAllowedUrl(url: string, env: ChannelEnv) {
  if (env.allowPrivate) return;
  if (!isAllowedHost(new URL(url).hostname)) {
    throw new ChannelCallError(
      `${new URL(url).host} is not a public address (start fos serve with --allow-private-network to reach it)`,
      true,
    );
  }
}

/** A read, not a mutation: safe to send again (a GraphQL query; any GET). */
const readOnly = (method: string, body: string | null) => {
  if (method === 'GET' || method === 'HEAD') return true;
  if (method !== 'POST' || !body) return false;
  try {
    return !/^\s*mutation\b/.test(String((JSON.parse(body) as { query?: string }).query ?? 'mutation'));
  } catch {
    return false;
  }
};

/** fetch over the outbound layer (src/net): its deadlines ('push'), retries of reads and records. */
export function policyFetch(env: ChannelEnv, platform = 'shopify'): typeof fetch {
  const send = outboundFetch({ platform, allowPrivate: env.allowPrivate, operation: 'push', retrySafe: readOnly });
  return (async (input: string | URL, init?: RequestInit) => {
    assertAllowedUrl(String(input), env);
    return send(String(input), init);
  }) as unknown as typeof fetch;
}

/** axios options for the WooCommerce client: the outbound layer as its adapter, no redirects. */
export function axiosPolicy(env: ChannelEnv) {
  return { maxRedirects: 0, adapter: axiosAdapter({ platform: 'woocommerce', allowPrivate: env.allowPrivate, operation: 'push' }) };
}

/** A transport failure in words a merchant can act on. */
export function describeNetworkError(err: unknown, host: string): string {
  const e = err as { code?: string; cause?: { code?: string; errors?: { code?: string }[] }; name?: string; message?: string };
  const code = e?.code ?? e?.cause?.code ?? e?.cause?.errors?.[0]?.code;
  if (err instanceof DestinationRefused || e?.cause instanceof DestinationRefused || /destination not allowed/.test(String(e?.message))) {
    return `${host} resolves to a private address (start fos serve with --allow-private-network to reach it)`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `unknown domain ${host} (DNS lookup failed)`;
  if (code === 'ECONNREFUSED') return `${host} is unreachable (connection refused)`;
  if (
    code === 'ECONNABORTED' ||
    e?.name === 'TimeoutError' ||
    e?.name === 'AbortError' ||
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return `${host} did not answer in time`;
  return `${host} is unreachable (${code ?? e?.message ?? 'connection failed'})`;
}
