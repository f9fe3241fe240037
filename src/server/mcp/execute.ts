import type { FastifyInstance } from 'fastify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { innerCallHeaders } from '../auth.js';
import { normalizeKey, searchCatalog, type Catalog, type Operation } from './catalog.js';

/** Largest operation response returned to an agent (spec §8: agent response size 1 MiB). */
export const MAX_AGENT_RESPONSE_BYTES = 1024 * 1024;

export type QueryValue = string | number | boolean | Array<string | number | boolean>;

export interface ExecuteInput {
  operation_key: string;
  path_params?: Record<string, string | number>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  confirm_write?: boolean;
}

export const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** The refusal for a key that is not in the catalog, with the closest keys as hints. */
export function unknownKey(catalog: Catalog, key: string, next: string): CallToolResult {
  const hints = searchCatalog(catalog, key)
    .slice(0, 3)
    .map((h) => h.operation.key);
  return toolError(
    `Unknown operation key "${key}". Use search_svc_operations to find the exact key (METHOD /path-template), ` +
      `then ${next}.${hints.length ? ` Closest keys: ${hints.join(', ')}.` : ''}`,
  );
}

export function findOperation(catalog: Catalog, key: string): Operation | undefined {
  return catalog.byKey.get(key) ?? catalog.byKey.get(normalizeKey(key));
}

function buildUrl(op: Operation, given: Record<string, string | number>): string | CallToolResult {
  const names = (op.spec.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  const missing = names.filter((n) => given[n] === undefined || given[n] === '');
  const unknown = Object.keys(given).filter((n) => !names.includes(n));
  if (missing.length || unknown.length) {
    const problems = [
      missing.length ? `missing path_params: ${missing.join(', ')}` : '',
      unknown.length ? `unknown path_params: ${unknown.join(', ')}` : '',
    ].filter(Boolean);
    const expected = names.length ? names.join(', ') : 'none';
    return toolError(`${op.key}: ${problems.join('; ')} (expected: ${expected}). See describe_svc_operation.`);
  }
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(given[name])));
}

const queryOf = (query: Record<string, QueryValue>) =>
  Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]));

function parseBody(payload: string, contentType: string | undefined): unknown {
  if (payload === '') return null;
  if (contentType && /[/+]json\b/.test(contentType)) {
    try {
      return JSON.parse(payload);
    } catch {
      return payload;
    }
  }
  return payload;
}

/**
 * Runs one catalog operation in-process with the caller's own credential, so its team,
 * permissions and the route's validation apply exactly as over HTTP. Each execute is one
 * operation against the caller's rate tier (a 429 comes back as the tool's result); the
 * in-process marker lets an agent connection's token, valid only at /mcp, make the call.
 */
export async function executeOperation(
  app: FastifyInstance,
  token: string,
  catalog: Catalog,
  input: ExecuteInput,
): Promise<CallToolResult> {
  const op = findOperation(catalog, input.operation_key);
  if (!op) return unknownKey(catalog, input.operation_key, 'describe_svc_operation to learn its inputs, then execute it');
  if (op.write && input.confirm_write !== true) {
    return toolError(
      `${op.key} changes data (${op.summary || op.method}). Review the operation and its inputs ` +
        '(describe_svc_operation), then retry with confirm_write true after review.',
    );
  }
  const url = buildUrl(op, input.path_params ?? {});
  if (typeof url !== 'string') return url;
  const hasBody = input.body !== undefined;
  if (hasBody && !op.spec.requestBody) {
    return toolError(`${op.key} takes no request body; pass its inputs as path_params and query.`);
  }

  const res = await app.inject({
    method: op.method as 'GET',
    url,
    query: input.query ? queryOf(input.query) : undefined,
    headers: {
      'x-access-token': token,
      ...innerCallHeaders(),
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
    },
    ...(hasBody ? { payload: JSON.stringify(input.body) } : {}),
  });

  const size = res.rawPayload.length;
  if (size > MAX_AGENT_RESPONSE_BYTES) {
    return toolError(
      `${op.key} answered ${res.statusCode} with ${size} bytes, more than the agent-tool limit of 1 MiB ` +
        `(${MAX_AGENT_RESPONSE_BYTES} bytes), so it is not returned. Use pagination (page, limit) and filters ` +
        'to ask for less, then retry.',
    );
  }
  const contentType = res.headers['content-type'];
  const traceId = res.headers['x-trace-id'];
  const result = {
    status: res.statusCode,
    body: parseBody(res.payload, typeof contentType === 'string' ? contentType : undefined),
    ...(typeof traceId === 'string' ? { trace_id: traceId } : {}),
  };
  return {
    // The operation's own error (403, 404, 409, validation) is the tool's result, flagged so the agent notices.
    ...(res.statusCode >= 400 ? { isError: true } : {}),
    structuredContent: result,
    content: [{ type: 'text', text: JSON.stringify(result) }],
  };
}
