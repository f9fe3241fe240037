import { Type, type TSchema, type TSchemaOptions } from 'typebox';
import { idPrefixQuery } from './id-prefix.js';
import { SORT_ORDERS } from './enums.js';

// Shared schema pieces. Route schemas are the one source for validation, the OpenAPI
// document, the agent-tool catalog and the CLI's field completion.

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Optional + nullable, for response fields that may be null. */
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const Timestamp = Type.String({ format: 'date-time' });
export const Id = Type.String({ minLength: 1, maxLength: 64 });
export const Uuid = Type.String({ format: 'uuid', maxLength: 36 });
/** A calendar day, YYYY-MM-DD, that exists (2026-02-30 does not). */
export const Day = (description = 'calendar day, YYYY-MM-DD') => Type.String({ format: 'date', maxLength: 10, description });

/** A string enum: `{ enum: [...] }` in JSON Schema, the union of the values in TypeScript. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: TSchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'urn:fos:error:<kind>' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String({ description: 'Ends with "(support reference: <16 hex trace id>)".' }),
    trace_id: Type.String({ pattern: '^[0-9a-f]{16}$' }),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'Problem', additionalProperties: true },
);

export const PageMetaSchema = Type.Object(
  {
    page: Type.Integer(),
    page_size: Type.Integer(),
    start_index: Type.Integer(),
    end_index: Type.Integer(),
    has_next_page: Type.Boolean(),
    has_previous_page: Type.Boolean(),
    total: Type.Optional(Type.Integer()),
    next_cursor: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'pass as `cursor` for the next page (keyset paging); null on the last page',
      }),
    ),
  },
  { $id: 'PageMeta' },
);

export const listOf = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), meta: Type.Ref('PageMeta') });

/** page/limit query members; spread into a route's querystring schema. */
export const pageQuery = (opts: { defaultLimit?: number; maxLimit?: number } = {}) => ({
  // Bounded so skip = page * limit stays a safe integer for every database (1e400 is Infinity).
  // The spec types them as numbers (double): 2.0 is page 2, 2.5 is refused (multipleOf 1).
  page: Type.Number({ minimum: 0, maximum: 1_000_000, multipleOf: 1, default: 0, description: '0-based page number, a whole number' }),
  limit: Type.Number({
    multipleOf: 1,
    minimum: 1,
    maximum: opts.maxLimit ?? 100,
    default: opts.defaultLimit ?? 20,
    description: 'items per page, a whole number',
  }),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z0-9_-]+$',
      description:
        'opaque keyset cursor: meta.next_cursor of the previous page (same filters and sort); page is then not used. Constant time per page however deep.',
    }),
  ),
  ...idPrefixQuery,
});

export const sortOrder = Type.Optional(StringEnum(SORT_ORDERS));

export const IdParams = <const K extends string>(name: K) => Type.Object({ [name]: Id } as Record<K, typeof Id>);
