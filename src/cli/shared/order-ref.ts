import type { ApiClient } from '../../client/api-client.js';

/**
 * Orders by number: `fos orders get 1003`, `fos orders get '#1003'`, `fos fulfill run '#1003'`:
 * the order kind of refs.ts (its number through the list's search, kept on an exact match with a
 * leading `#` and case ignored, else an id prefix). None is "not found" (exit 4); several (the
 * same number at two merchants) is a usage error listing them (exit 2).
 */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID_RE.test(s.trim());

export async function orderIdOf(client: ApiClient, ref: string): Promise<string> {
  return (await import('./refs.js')).resolveRef(client, 'order', ref);
}
