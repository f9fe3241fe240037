import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { Ajv, type ErrorObject } from 'ajv';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../domain/keys/index.js';
import { referencedSchemas, searchCatalog, type Catalog, type OpenApiParameter, type Operation } from './catalog.js';
import { executeOperation, findOperation, MAX_AGENT_RESPONSE_BYTES, toolError, unknownKey } from './execute.js';

// The three agent tools of spec 4.11. Input schemas are TypeBox (JSON Schema), published as is in
// tools/list and checked here with Ajv before a tool runs.

export interface ToolContext {
  app: FastifyInstance;
  catalog: Catalog;
  principal: Principal;
  /** The caller's API key or connection token, reused for execute so its permissions and team apply. */
  token: string;
}

const SearchInput = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Capability, resource, operation id, path or tag, e.g. "list products", "fulfill package", "/v1/keys".',
    }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Most results to return (1-50, default 10).' })),
  },
  { additionalProperties: false },
);

const DescribeInput = Type.Object(
  {
    operation_key: Type.String({
      minLength: 1,
      description: 'Exact key from search_svc_operations, e.g. "GET /v1/ops/products/{product_id}".',
    }),
  },
  { additionalProperties: false },
);

const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const ExecuteInput = Type.Object(
  {
    operation_key: Type.String({ minLength: 1, description: 'Exact key from search_svc_operations, e.g. "GET /v1/me".' }),
    path_params: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
        description: 'Values for the {placeholders} of the path template.',
      }),
    ),
    query: Type.Optional(
      Type.Record(Type.String(), Type.Union([Scalar, Type.Array(Scalar)]), { description: 'Query parameters (page, limit, filters).' }),
    ),
    body: Type.Optional(Type.Unknown({ description: 'JSON request body, for operations that take one.' })),
    confirm_write: Type.Optional(
      Type.Boolean({ description: 'Must be true for POST, PUT, PATCH and DELETE operations, after reviewing the inputs.' }),
    ),
  },
  { additionalProperties: false },
);

const ExecuteOutput = Type.Object({
  status: Type.Integer({ description: 'HTTP status of the operation.' }),
  body: Type.Unknown({ description: 'JSON body: the resource, a list {data, meta}, or a problem+json error.' }),
  trace_id: Type.Optional(Type.String()),
});

const summaryOf = (op: Operation, principal: Principal) => ({
  operation_key: op.key,
  summary: op.summary,
  tag: op.tags[0] ?? null,
  operation_id: op.operationId,
  required_permission: op.permission,
  key_has_permission: op.permission === null || principal.permissions.has(op.permission as never),
  confirm_write_required: op.write,
});

const ok = (structured: Record<string, unknown>): CallToolResult => ({
  structuredContent: structured,
  content: [{ type: 'text', text: JSON.stringify(structured) }],
});

function search(input: Static<typeof SearchInput>, ctx: ToolContext): CallToolResult {
  const hits = searchCatalog(ctx.catalog, input.query);
  const results = hits.slice(0, input.limit ?? 10).map((h) => summaryOf(h.operation, ctx.principal));
  return ok({
    query: input.query,
    total_matches: hits.length,
    results,
    ...(results.length
      ? {}
      : { hint: 'No operation matched; try a resource name (products, orders, packages, keys) or a verb (list, create, fulfill).' }),
  });
}

// Path/query parameters with a default are optional in practice (the default applies).
const param = (p: OpenApiParameter) => ({
  name: p.name,
  required: Boolean(p.required) && p.schema?.default === undefined,
  ...(p.description ? { description: p.description } : {}),
  schema: p.schema ?? {},
});

function firstContent(content: Record<string, { schema?: Record<string, unknown> }> | undefined) {
  const [contentType, media] = Object.entries(content ?? {})[0] ?? [];
  return contentType ? { content_type: contentType, schema: media?.schema ?? {} } : {};
}

function describe(input: Static<typeof DescribeInput>, ctx: ToolContext): CallToolResult {
  const op = findOperation(ctx.catalog, input.operation_key);
  if (!op) return unknownKey(ctx.catalog, input.operation_key, 'describe_svc_operation with that key');
  const params = op.spec.parameters ?? [];
  const body = op.spec.requestBody;
  const described = {
    ...summaryOf(op, ctx.principal),
    method: op.method,
    path: op.path,
    tags: op.tags,
    description: op.description,
    path_parameters: params.filter((p) => p.in === 'path').map(param),
    query_parameters: params.filter((p) => p.in === 'query').map(param),
    request_body: body ? { required: Boolean(body.required), ...firstContent(body.content) } : null,
    responses: Object.fromEntries(
      Object.entries(op.spec.responses ?? {}).map(([status, r]) => [
        status,
        { description: r.description ?? '', ...firstContent(r.content) },
      ]),
    ),
  };
  return ok({
    ...described,
    referenced_schemas: referencedSchemas(described, ctx.catalog.schemas),
    how_to_execute:
      `execute_svc_operation with operation_key "${op.key}"` +
      (described.path_parameters.length ? ', path_params' : '') +
      (described.query_parameters.length ? ', optional query' : '') +
      (body ? ', body' : '') +
      (op.write ? ' and confirm_write true once the inputs are reviewed' : '') +
      `. Responses over ${MAX_AGENT_RESPONSE_BYTES} bytes are refused; page through lists.`,
  });
}

interface ToolDef {
  tool: Tool;
  validate(args: unknown): ErrorObject[] | null;
  run(args: never, ctx: ToolContext): CallToolResult | Promise<CallToolResult>;
}

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false });

function defineTool<S extends TSchema>(
  tool: Omit<Tool, 'inputSchema'> & { inputSchema: S },
  run: (args: Static<S>, ctx: ToolContext) => CallToolResult | Promise<CallToolResult>,
): ToolDef {
  const check = ajv.compile(tool.inputSchema);
  return {
    tool: tool as unknown as Tool,
    validate: (args) => (check(args) ? null : (check.errors ?? [])),
    run: run as ToolDef['run'],
  };
}

export const TOOLS: ToolDef[] = [
  defineTool(
    {
      name: 'search_svc_operations',
      title: 'Search API operations',
      description:
        'Search the fos public API operation catalog by capability, resource, operation id, path or tag. ' +
        'Results carry stable operation keys "METHOD /path-template" for describe_svc_operation and execute_svc_operation, ' +
        'with the permission each requires and whether the connected key holds it.',
      inputSchema: SearchInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    search,
  ),
  defineTool(
    {
      name: 'describe_svc_operation',
      title: 'Describe an API operation',
      description:
        'Path parameters, query parameters, request body schema, responses and referenced schemas of one operation, by its exact operation key.',
      inputSchema: DescribeInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    describe,
  ),
  defineTool(
    {
      name: 'execute_svc_operation',
      title: 'Execute an API operation',
      description:
        "Run one operation by its exact operation key with the connected key's team and permissions. " +
        'POST, PUT, PATCH and DELETE operations change data and require confirm_write: true after review. ' +
        'Returns the HTTP status and JSON body (errors are problem+json); responses over 1 MiB are refused — use page, limit and filters.',
      inputSchema: ExecuteInput,
      outputSchema: ExecuteOutput as unknown as Tool['outputSchema'],
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args, ctx) => executeOperation(ctx.app, ctx.token, ctx.catalog, args),
  ),
];

export const formatArgErrors = (errors: ErrorObject[]) =>
  errors
    .map((e) => {
      const params = e.params as Record<string, unknown>;
      const at = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
      if (typeof params.additionalProperty === 'string')
        return `${[at, params.additionalProperty].filter(Boolean).join('.')} is not a known input`;
      if (typeof params.missingProperty === 'string') return `${[at, params.missingProperty].filter(Boolean).join('.')} is required`;
      return `${at || 'arguments'} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');

export const invalidArguments = (name: string, errors: ErrorObject[]) =>
  toolError(`Invalid arguments for ${name}: ${formatArgErrors(errors)}.`);
