import type { ApiClient } from '../../client/api-client.js';
import { CliError, ExitCode, UsageError } from '../errors.js';

/**
 * Orders by number: `fos orders get 1003`, `fos orders get '#1003'`, `fos fulfill run '#1003'`.
 * Anything that is not an order id (a UUID) is an order number, found with the list's search
 * (order-number prefix, spec 4.4) and kept only when the number matches exactly (a leading `#`
 * and case ignored), else an id prefix (refs.ts). None is "not found" (exit 4); several (the same number at two merchants)
 * is a usage error listing them (exit 2).
 */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID_RE.test(s.trim());

interface ListedOrder {
  id: string;
  order_number: string | null;
  merchant_team_name?: string | null;
}

const bare = (n: string) => n.trim().replace(/^#/, '').toLowerCase();

export async function orderIdOf(client: ApiClient, ref: string): Promise<string> {
  if (isUuid(ref)) return ref.trim();
  const number = bare(ref);
  if (number.length < 3) {
    throw new UsageError(
      `"${ref}" is not an order id, and order numbers are searched from 3 characters: pass the order id (fos orders list --json id,order_number)`,
    );
  }
  const page = await client.get<{ data: ListedOrder[] }>('/ops/orders/list', {
    search: number,
    limit: 100,
    order_by: 'order_number',
    order: 'asc',
  });
  const matches = (page?.data ?? []).filter((o) => o.order_number !== null && bare(o.order_number) === number);
  if (matches.length === 1) return matches[0].id;
  // Not a number: a short id as tables show them (shared/refs.ts).
  if (!matches.length && /^[0-9a-f-]{4,35}$/i.test(ref.trim())) {
    return (await import('./refs.js')).resolveIdPrefix(client, '/ops/orders', ref, 'order', 'order_number');
  }
  if (!matches.length) throw new CliError(`no order with number ${ref} was found`, ExitCode.NOT_FOUND);
  const list = matches.map((o) => `${o.order_number} ${o.id}${o.merchant_team_name ? ` (${o.merchant_team_name})` : ''}`).join('; ');
  throw new UsageError(`order number ${ref} is ambiguous: ${list}; pass the order id`);
}
