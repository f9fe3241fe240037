import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import type { Static } from 'typebox';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { printRecord } from '../../output/print.js';
import { seg } from '../../shared/resource.js';
import { shopPath } from './fields.js';
import type { CreatedShopAuthorizationSchema, ShopAuthorizationSchema } from '../../../contract/shop-authorizations.js';

// `fos shops connect etsy --oauth [--wait]` (docs/sales-channels.md §3e step 2): the seller's
// consent through fos. The server keeps the app's keys and the PKCE verifier; the CLI prints the
// page the seller opens and, with --wait, follows the authorization until the seller's answer
// reaches the server (or it expires) and prints the shop. Exit codes: 0 connected (or, without
// --wait, the link made), 1 refused on either side or expired; the usual ones otherwise.

type Created = Pick<Static<typeof CreatedShopAuthorizationSchema>, 'id' | 'authorize_url' | 'redirect_uri' | 'expires_at'>;
type Authorization = Pick<Static<typeof ShopAuthorizationSchema>, 'status' | 'message' | 'shop_id'>;

export const authorizationsPath = (platform: string, id?: string) =>
  `${shopPath(platform, 'authorizations')}${id === undefined ? '' : `/${seg(id)}`}`;

/** --oauth, --wait and where the consent page is: the options of a platform with consent through fos. */
export function consentOptions(cmd: Command, label: string) {
  cmd.option('--oauth', `connect with the seller's consent through fos (OAuth): prints the ${label} page the seller opens`);
  cmd.option('--wait', 'with --oauth: wait for the seller to consent, then print the shop');
  cmd.option('--poll-interval <seconds>', 'with --wait: how often to ask the server (default 2)');
  cmd.option('--connect-base-url <url>', `with --oauth: where the ${label} consent page is (a proxy or a test double)`);
}

/** The body of POST …/authorizations from the connect flags; settings are set afterwards (fos shops update). */
export function consentBody(body: Record<string, unknown>, opts: Record<string, unknown>) {
  const conn = (body.connection ?? {}) as Record<string, unknown>;
  if (conn.refresh_token) throw new UsageError("--oauth gets the refresh token from the seller's consent: leave out --refresh-token");
  if (body.settings) throw new UsageError('--oauth connects the shop only: set its settings afterwards with fos shops update <shop-id>');
  const { refresh_token: _none, ...keys } = conn;
  return {
    name: body.name,
    ...(body.merchant_team_id ? { merchant_team_id: body.merchant_team_id } : {}),
    ...keys,
    ...(opts.connectBaseUrl ? { connect_base_url: opts.connectBaseUrl } : {}),
  };
}

/** Refuses the consent options without --oauth (they would be ignored). */
export function checkConsentFlags(opts: Record<string, unknown>) {
  if (opts.oauth) return;
  for (const [key, flag] of [
    ['wait', '--wait'],
    ['pollInterval', '--poll-interval'],
    ['connectBaseUrl', '--connect-base-url'],
  ] as const)
    if (opts[key] !== undefined) throw new UsageError(`${flag} goes with --oauth`);
}

function interval(opts: Record<string, unknown>) {
  if (opts.pollInterval === undefined) return 2000;
  const s = Number(opts.pollInterval);
  if (!Number.isFinite(s) || s <= 0 || s > 60) throw new UsageError('--poll-interval is a number of seconds, more than 0 and at most 60');
  return s * 1000;
}

/** After POST …/authorizations: the link (stdout), what to register (stderr), and with --wait the outcome. */
export async function afterConsent(ctx: Context, platform: string, label: string, record: Created, opts: Record<string, unknown>) {
  const every = opts.wait ? interval(opts) : 0;
  ctx.io.info(
    [
      `authorization ${record.id}: register ${record.redirect_uri} as a callback URL of the ${label} app (once, exactly);`,
      `the seller opens this link signed in to ${label} and grants access before ${record.expires_at}:`,
    ].join('\n'),
  );
  // Etsy refuses a redirect URI without TLS: said before the seller meets the refusal.
  if (!record.redirect_uri.startsWith('https://'))
    ctx.io.warn(`${label} takes only https:// callback URLs: start fos serve with --public-url https://… (docs/serve.md)`);
  const shaped = ctx.options.json !== undefined || ctx.options.jq !== undefined || ctx.options.template !== undefined;
  if (!opts.wait) {
    // The link alone is the data; an output option asks for the whole authorization instead.
    if (shaped) await printRecord(ctx, record);
    else await ctx.io.out(`${record.authorize_url}\n`);
    return;
  }
  ctx.io.info(record.authorize_url);
  const a = await awaitConsent(ctx, platform, record.id, every);
  if (a.status === 'CONNECTED') {
    ctx.io.info(`connected: shop ${a.shop_id}`);
    return printRecord(ctx, await ctx.client().get(shopPath(a.shop_id!)));
  }
  if (a.status === 'EXPIRED') throw new CliError(`the seller did not consent in time: start again with --oauth`, ExitCode.ERROR);
  throw new CliError(`the shop was not connected: ${a.message ?? a.status}`, ExitCode.ERROR);
}

async function awaitConsent(ctx: Context, platform: string, id: string, every: number): Promise<Authorization> {
  const bar = ctx.io.progress();
  try {
    for (;;) {
      const a = await ctx.client().get<Authorization>(authorizationsPath(platform, id));
      if (a.status !== 'PENDING') return a;
      bar.update("waiting for the seller's consent…");
      await sleep(every);
    }
  } finally {
    bar.done();
  }
}
