// What an audit record never holds (issue 42): field names that carry credentials. The same
// names the request logs and URLs are cleaned of (src/server/query-secrets.ts), widened to the
// bodies' fields (password, client_secret, api keys of carriers and shops, …).

const SECRET_NAME = /token|password|secret|credential|api_?key|authorization|private_?key|passphrase|signing|cookie|^key$/i;
export const REDACTED = '[redacted]';
const MAX_TEXT = 200;
const MAX_DEPTH = 4;

export const isSecretName = (name: string) => SECRET_NAME.test(name);

/** A value made safe and compact for the audit record: secrets redacted, long text and lists cut. */
export function compactValue(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, 20).map((v) => compactValue(v, depth + 1));
    return value.length > 20 ? [...items, `… ${value.length - 20} more`] : items;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return compactValue((value as { toJSON(): unknown }).toJSON(), depth);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) ? REDACTED : compactValue(v, depth + 1);
  return out;
}
