import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';
import { Type, type TObject, type TSchema } from 'typebox';
import type { Db } from '../../../db/types.js';
import {
  cursorAfterRecord,
  findRecordCreatedAt,
  RECORDS_PER_REQUEST,
  walkPages,
  type ExportedList,
  type ExportPage,
} from '../../../domain/exports/index.js';
import type { Principal } from '../../../domain/keys/index.js';
import { csvLine } from '../../../shared/csv.js';
import { TIER_LIMITS } from '../../rate-limit/stores.js';
import { StringEnum } from '../../../contract/common.js';
import { ChargeListQuery, ChargeSchema } from '../../../contract/charges.js';
import { MovementListQuery, MovementSchema } from '../../../contract/inventory.js';
import { OrderListItemSchema } from '../../../contract/orders.js';
import { PackageListQuery, PackageSchema } from '../../../contract/packages.js';
import { OpsProductListItem, OpsProductQuery } from '../../../contract/products.js';
import { nullableAsTypeList } from '../../serializer.js';
import { fetchList } from './list-fetch.js';
import { ListOrdersQuery } from './orders.js';

// GET /v1/ops/<list>/export (issue 29 item 4; docs/api.md "Exports"): every record of a list as
// NDJSON or CSV, streamed from a keyset walk (src/domain/exports/walk.ts), with the list's filters
// (through the list route's own fetch, list-fetch.ts),
// newest first. Records are serialized by the list's own item schema, so a record is the same
// JSON as on the list's pages. The request counts as one against the key's rate limit, plus one
// for every further 10,000 records; when the key's allowance runs out the stream waits for the
// next window rather than failing half-way. `after=<id>` resumes after the last record received.

type Query = Record<string, unknown>;
type Fetch = (db: Db, principal: Principal, q: Query, cursor: string | undefined, limit: number) => Promise<ExportPage<object>>;

interface ExportResource {
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  permission: string;
  listQuery: TObject;
  item: TSchema;
  fetch: Fetch;
  /** Whose record `after` names (its creation time resumes the walk: findRecordCreatedAt). */
  list: ExportedList;
}

const page = (q: Query, cursor: string | undefined, limit: number) => ({ ...q, page: 0, limit, cursor });

const RESOURCES: ExportResource[] = [
  {
    path: '/v1/ops/orders/export',
    operationId: 'exportOrders',
    summary: 'Export orders (NDJSON or CSV stream)',
    tag: 'Orders',
    permission: 'READ_ORDERS',
    listQuery: ListOrdersQuery,
    item: OrderListItemSchema,
    fetch: (db, p, q, cursor, limit) => fetchList.orders(db, p, { ...page(q, cursor, limit), order_by: 'created_at', order: 'desc' }),
    list: 'orders',
  },
  {
    path: '/v1/ops/products/export',
    operationId: 'exportOpsProducts',
    summary: 'Export products with inventory (NDJSON or CSV stream)',
    tag: 'Products',
    permission: 'READ_PRODUCTS',
    listQuery: OpsProductQuery,
    item: OpsProductListItem,
    fetch: (db, p, q, cursor, limit) =>
      fetchList.products(db, p, { ...page(q, cursor, limit), order_by: 'created_at', order: 'desc' } as never),
    list: 'products',
  },
  {
    path: '/v1/ops/inventory/movements/export',
    operationId: 'exportInventoryMovements',
    summary: 'Export the inventory ledger (NDJSON or CSV stream)',
    tag: 'Inventory',
    permission: 'READ_INVENTORY',
    listQuery: MovementListQuery,
    item: MovementSchema,
    fetch: (db, p, q, cursor, limit) => fetchList.movements(db, p, page(q, cursor, limit) as never),
    list: 'movements',
  },
  {
    path: '/v1/ops/charges/export',
    operationId: 'exportCharges',
    summary: 'Export charges (NDJSON or CSV stream)',
    tag: 'Charges',
    permission: 'READ_CHARGES',
    listQuery: ChargeListQuery,
    item: ChargeSchema,
    fetch: (db, p, q, cursor, limit) => fetchList.charges(db, p, { ...page(q, cursor, limit), order: 'desc' } as never),
    list: 'charges',
  },
  {
    path: '/v1/ops/packages/export',
    operationId: 'exportPackages',
    summary: 'Export packages (NDJSON or CSV stream)',
    tag: 'Packages',
    permission: 'READ_FULFILLMENTS',
    listQuery: PackageListQuery,
    item: PackageSchema,
    fetch: (db, p, q, cursor, limit) => fetchList.packages(db, p, page(q, cursor, limit) as never),
    list: 'packages',
  },
];

const FORMATS = ['ndjson', 'csv'] as const;
const CONTENT_TYPES = { ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

/** The list's filters, without its paging and sort (an export walks the whole list, newest first), plus format and after. */
const exportQuery = (listQuery: TObject) =>
  Type.Object(
    {
      ...Type.Omit(listQuery, ['page', 'limit', 'cursor', 'order_by', 'order']).properties,
      format: Type.Optional(
        StringEnum(FORMATS, {
          default: 'ndjson',
          description: 'ndjson (one JSON record a line) or csv (a header line, nested values as JSON)',
        }),
      ),
      after: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, description: 'resume after this record id (the last one received)' }),
      ),
    },
    { additionalProperties: false },
  );

const DESCRIPTION =
  'Every record the list would return with these filters, newest first, streamed from a keyset walk with flat memory. ' +
  `Counts as one request against the key's rate limit plus one for every further ${RECORDS_PER_REQUEST} records ` +
  '(x-export-records-per-request); when the allowance runs out the stream pauses until the next window. ' +
  'An interrupted export resumes with after=<id of the last record received>.';

/** Charges the key one more request; waits for the next window when its allowance is spent. */
async function payForMore(app: FastifyInstance, principal: Principal, closed: () => boolean) {
  const limit = TIER_LIMITS[principal.tier] ?? TIER_LIMITS[1];
  while (!closed()) {
    const now = app.clock(); // the clock the request itself was counted by (auth.ts)
    const hit = await app.rateLimiter.hit(principal.keyId, now, limit);
    if (hit.count <= limit) return;
    await sleep(Math.max(50, hit.resetAt - now));
  }
}

/** The export's body: lines of NDJSON or CSV, one chunk a page. */
async function* exportLines(app: FastifyInstance, request: FastifyRequest, r: ExportResource, q: Query, cursor: string | undefined) {
  const { format = 'ndjson', after: _after, ...filters } = q as Query & { format?: (typeof FORMATS)[number]; after?: string };
  const serialize = serializerOf(r);
  const columns = Object.keys((r.item as TObject).properties);
  // The header goes out with the first page, so an export that fails at its first query is a plain 400/5xx.
  let header = format === 'csv' ? csvLine(columns) : '';
  let sent = 0;
  let paid = 1;
  const closed = () => request.raw.destroyed;
  for await (const records of walkPages((c, limit) => r.fetch(app.db, request.principal, filters, c, limit), cursor)) {
    if (closed()) return;
    let chunk = header;
    header = '';
    for (const record of records) {
      const json = serialize(record);
      if (format === 'csv') {
        const values = JSON.parse(json) as Query; // the record as the list shows it (dates as text, fields in schema order)
        chunk += csvLine(columns.map((c) => values[c]));
      } else chunk += `${json}\n`;
    }
    sent += records.length;
    // The request itself paid for the first block of RECORDS_PER_REQUEST records; each block begun since is one more.
    for (const touched = Math.ceil(sent / RECORDS_PER_REQUEST); paid < touched; paid++) await payForMore(app, request.principal, closed);
    yield chunk;
  }
  if (header) yield header;
}

const serializers = new Map<ExportResource, (data: unknown) => string>();
const serializerOf = (r: ExportResource) => {
  let s = serializers.get(r);
  if (!s) serializers.set(r, (s = fastJsonStringify(nullableAsTypeList(r.item) as never) as (data: unknown) => string));
  return s;
};

export default async function routes(app: FastifyInstance) {
  for (const r of RESOURCES) {
    app.get(
      r.path,
      {
        config: { permission: r.permission, family: 'ops' } as never,
        schema: {
          operationId: r.operationId,
          tags: [r.tag],
          summary: r.summary,
          description: DESCRIPTION,
          querystring: exportQuery(r.listQuery),
          response: {
            200: {
              description: 'NDJSON or CSV records',
              content: { 'application/x-ndjson': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } },
            },
          },
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const q = request.query as Query & { format?: (typeof FORMATS)[number]; after?: string };
        const cursor = q.after
          ? cursorAfterRecord(q.after, await findRecordCreatedAt[r.list](app.db.prisma, request.principal.teamId, q.after))
          : undefined;
        // The first page is read before the headers go out, so a bad filter is still a 400 problem.
        const lines = exportLines(app, request, r, q, cursor);
        const first = await lines.next();
        async function* body() {
          if (!first.done) yield first.value;
          yield* lines;
        }
        reply.header('x-export-records-per-request', RECORDS_PER_REQUEST).type(CONTENT_TYPES[q.format ?? 'ndjson']);
        return reply.send(Readable.from(body(), { objectMode: false }));
      },
    );
  }
}
