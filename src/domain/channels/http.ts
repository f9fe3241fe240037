import { createRequire } from 'node:module';
import http from 'node:http';
import https from 'node:https';
import type { Dispatcher } from 'undici';
import { DestinationRefused, isAllowedHost, publicOnlyAgent, publicOnlyLookup } from '../webhooks/network.js';

// Outbound calls to sales-channel platforms follow the webhook network policy
// (src/domain/webhooks/network.ts): only public addresses unless `fos serve
// --allow-private-network` (alias of --allow-private-webhooks) says otherwise. Both official
// clients are handed the transport: Shopify's a fetch (customFetchApi), WooCommerce's axios
// agents whose DNS lookup refuses private answers.

export interface ChannelEnv {
  /** Reach loopback/private addresses too (fos serve --allow-private-network; tests). */
  allowPrivate?: boolean;
  /** Timeout of one platform call (ms). */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 15_000;

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

let undici: { fetch: typeof import('undici').fetch; agent?: Dispatcher } | undefined;

/** fetch over the policy's dispatcher. */
export function policyFetch(env: ChannelEnv): typeof fetch {
  return (async (input: string | URL, init?: RequestInit) => {
    const url = String(input);
    assertAllowedUrl(url, env);
    undici ??= { fetch: (createRequire(import.meta.url)('undici') as typeof import('undici')).fetch };
    if (!env.allowPrivate) undici.agent ??= publicOnlyAgent();
    return undici.fetch(url, {
      ...(init as object),
      redirect: 'manual',
      signal: AbortSignal.timeout(env.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      ...(env.allowPrivate ? {} : { dispatcher: undici.agent }),
    } as never);
  }) as unknown as typeof fetch;
}

/** axios options for the WooCommerce client: agents whose lookup refuses private addresses, no redirects. */
export function axiosPolicy(env: ChannelEnv) {
  const lookup = env.allowPrivate ? undefined : (publicOnlyLookup as never);
  return {
    maxRedirects: 0,
    timeout: env.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    httpAgent: new http.Agent({ lookup }),
    httpsAgent: new https.Agent({ lookup }),
  };
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
  if (code === 'ECONNABORTED' || e?.name === 'TimeoutError' || e?.name === 'AbortError' || code === 'ETIMEDOUT')
    return `${host} did not answer in time`;
  return `${host} is unreachable (${code ?? e?.message ?? 'connection failed'})`;
}
