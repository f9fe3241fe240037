import { Command, InvalidArgumentError } from 'commander';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, newWebhookSecret, SIGNATURE_HEADER, signWebhook } from '../../../client/webhook-signature.js';
import type { Context } from '../../context.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { declareOutput, fixed } from '../../output/shape.js';

// `fos webhooks listen`, as `stripe listen`: the team's events from the server (a long poll of
// GET /v1/webhooks/events, which reads the database's outbox, so it sees every replica's events),
// printed as they come (NDJSON on stdout) and, with --forward-to, POSTed to a local URL signed as
// real deliveries are, so a receiver is developed without exposing it to the internet.

interface StreamEvent {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}
interface ListenOptions {
  forwardTo?: string;
  events?: string;
  secret?: string;
  maxEvents?: number;
}

const WAIT_SECONDS = 20;

function positive(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number, 1 or more.');
  return n;
}

async function forward(ctx: Context, url: string, secret: string, e: StreamEvent): Promise<void> {
  // The bytes a real delivery carries, signed over exactly these bytes.
  const body = JSON.stringify({ id: e.id, type: e.type, created_at: e.created_at, data: e.data });
  try {
    const res = await fetch(url, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(10_000),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'fos-webhooks-listen',
        [SIGNATURE_HEADER]: signWebhook(secret, body),
        [EVENT_ID_HEADER]: e.id,
        [EVENT_TYPE_HEADER]: e.type,
      },
    });
    await res.body?.cancel().catch(() => {});
    ctx.io.info(`${e.type} ${e.id} -> POST ${url} [${res.status}]`);
  } catch (err) {
    ctx.io.warn(`${e.type} ${e.id} -> POST ${url} failed: ${(err as Error).cause ? String((err as Error).cause) : (err as Error).message}`);
  }
}

export default function webhooksListen(ctx: Context): Command {
  const cmd = new Command('listen').description(
    "Print the team's events as they happen and forward each, signed, to a local URL (like stripe listen)",
  );
  cmd
    .option('--forward-to <url>', 'POST each event here, signed as webhook deliveries are (fos-signature)')
    .option('--events <types>', 'comma-separated event types, order.* for a family (default: all)')
    .option('--secret <whsec_…>', 'signing secret for forwarded events (default: $FOS_WEBHOOK_SECRET, else a new one, printed)')
    .option('--max-events <n>', 'stop after this many events (default: run until interrupted)', positive);
  cmd.action(async (...actionArgs: unknown[]) => {
    const opts = commandOf(actionArgs).opts() as ListenOptions;
    if (opts.forwardTo && !/^https?:\/\//.test(opts.forwardTo))
      throw new InvalidArgumentError('--forward-to takes an http:// or https:// URL');
    const secret = opts.secret ?? ctx.env.FOS_WEBHOOK_SECRET ?? newWebhookSecret();
    const client = ctx.client();
    // The first answer (wait 0, no cursor) fixes "from now on" before we say we are ready.
    let after = (await client.get<{ meta: { next_after: string } }>('/webhooks/events', { types: opts.events, wait: 0 })).meta.next_after;
    ctx.io.info(
      `Ready: listening for ${opts.events ?? 'all'} events${opts.forwardTo ? `, forwarding to ${opts.forwardTo}` : ''}. Signing secret: ${secret} (Ctrl-C to stop)`,
    );
    let seen = 0;
    for (;;) {
      const page = await client.get<{ data: StreamEvent[]; meta: { next_after: string } }>('/webhooks/events', {
        after,
        types: opts.events,
        wait: WAIT_SECONDS,
      });
      after = page.meta.next_after;
      for (const e of page.data) {
        await ctx.io.out(`${JSON.stringify(e)}\n`);
        if (opts.forwardTo) await forward(ctx, opts.forwardTo, secret, e);
        if (opts.maxEvents && ++seen >= opts.maxEvents) return;
      }
    }
  });
  declareOutput(cmd, fixed('prints each delivery it receives as a JSON line, as it arrives'));
  return withExamples(cmd, [
    'fos webhooks listen',
    'fos webhooks listen --forward-to http://localhost:3000/hook --events order.*,package.fulfilled',
    'fos webhooks listen --events inventory.* --json | jq .data',
  ]);
}
