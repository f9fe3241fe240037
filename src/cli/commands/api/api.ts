import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { HttpMethod, Query } from '../../../client/types.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printList, printResult } from '../../output/print.js';
import { buildBody, collect } from '../../shared/body.js';
import { enumArgument } from '../../shared/flags.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput } from '../../output/shape.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

interface ApiOptions {
  field?: string[];
  rawField?: string[];
  input?: string;
  header?: string[];
  paginate?: boolean;
  include?: boolean;
}

/** `/v1/ops/products` and `ops/products` both mean `{base_url}/ops/products`. */
export function apiPath(path: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new UsageError('pass a path relative to the base URL (e.g. /ops/products), not a full URL');
  }
  const p = path.startsWith('/') ? path : `/${path}`;
  return p.replace(/^\/v1(?=\/|$|\?)/, '') || '/';
}

function parseHeaders(values: string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of values) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header expects "Name: value", got "${h}"`);
    headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
  }
  if (headers['x-access-token']) throw new UsageError('the API key comes from the profile; do not pass x-access-token');
  return headers;
}

export default function api(ctx: Context): Command {
  const method = enumArgument('<method>', METHODS.join('|'), 'method', METHODS);
  const cmd = new Command('api')
    .description('Make an authenticated request to any API path and print the JSON response')
    .addArgument(method)
    .argument('<path>', 'path under the base URL, e.g. /ops/products (a leading /v1 is accepted)')
    .option('-F, --field <key=value>', 'typed field: numbers, true/false/null, JSON, @file (query for GET/HEAD, body otherwise)', collect)
    .option('-f, --raw-field <key=value>', 'string field (query for GET/HEAD, body otherwise)', collect)
    .option('--input <file|->', 'raw request body from a file or stdin (fields then go to the query)')
    .option('-H, --header <name:value>', 'extra request header (repeatable), e.g. "Idempotency-Key: 42"', collect)
    .option('--paginate', 'GET every page (page=0,1,…) and print all records')
    .option('-i, --include', 'print the response status line and headers (rate limits, retry-after…) before the body')
    .action(async (verb: HttpMethod, rawPath: string, opts: ApiOptions) => {
      const path = apiPath(rawPath);
      // gh-style: JSON unless the user asked for another format.
      if (!ctx.options.format && ctx.options.json === undefined) ctx.options.format = 'json';

      const fields = await buildBody(ctx, { field: opts.field, rawField: opts.rawField });
      const fieldsInQuery = verb === 'GET' || verb === 'HEAD' || opts.input !== undefined;
      let query: Query | undefined;
      if (fieldsInQuery) {
        query = {};
        for (const [k, v] of Object.entries(fields)) {
          if (typeof v === 'object' && v !== null) throw new UsageError(`query parameter ${k} cannot be an object or array`);
          query[k] = v as Query[string];
        }
      }
      const rawBody =
        opts.input === undefined
          ? undefined
          : opts.input === '-'
            ? Buffer.from(await ctx.io.readStdin())
            : await readFile(opts.input).catch((err) => {
                throw new UsageError(`--input: cannot read ${opts.input}: ${(err as NodeJS.ErrnoException).code ?? err}`);
              });
      const headers = parseHeaders(opts.header);
      const client = ctx.client();

      if (opts.paginate) {
        if (verb !== 'GET') throw new UsageError('--paginate works with GET only');
        await printList(ctx, client.paginate(path, query));
        return;
      }
      const res = await client.request(verb, path, {
        query,
        body: fieldsInQuery || Object.keys(fields).length === 0 ? undefined : fields,
        rawBody,
        headers,
        idempotencyKey: headers['idempotency-key'],
      });
      if (opts.include) {
        const lines = Object.entries(res.headers)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => `${k}: ${v}`);
        await ctx.io.out(`HTTP ${res.status}\n${lines.join('\n')}\n\n`);
      }
      if (typeof res.data === 'string') await ctx.io.out(res.data.endsWith('\n') ? res.data : `${res.data}\n`);
      else await printResult(ctx, res.data);
    });
  declareOutput(cmd, { kind: 'any', why: 'prints whatever the path answers' });
  return withExamples(cmd, [
    'fos api GET /me',
    'fos api -i GET /me                        # with the status line and headers',
    'fos api GET /ops/products -F limit=5 -f search=mug',
    'fos api PATCH /ops/orders/0193…/priority -f priority=HIGH',
    'fos api POST /ops/charges/receiving -f fulfillment_delegation_id=0193… -f data[name]=Inbound -F data[quantity]=3',
    'fos api POST /ops/draft-orders --input draft.json',
    'fos api GET /ops/orders/list --paginate --format ndjson',
  ]);
}
