// Every permission a key can hold. ADMIN keys hold all of them; MEMBER keys hold the
// deduplicated union of their custom roles' permissions.
export const PERMISSIONS = [
  'READ_PRODUCTS',
  'WRITE_PRODUCTS',
  'READ_ORDERS',
  'WRITE_ORDERS',
  'READ_FULFILLMENTS',
  'WRITE_FULFILLMENTS',
  'READ_CHARGES',
  'WRITE_CHARGES',
  'READ_FILES',
  'WRITE_FILES',
  'READ_VENDORS',
  'WRITE_VENDORS',
  'READ_INVENTORY',
  'WRITE_INVENTORY',
  'MANAGE_API_KEYS',
  'MANAGE_WEBHOOKS',
  'MANAGE_SHOPS',
  'MANAGE_CARRIERS',
  'WRITE_MCP',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

// What an agent connection may hold (spec 5.3): operational permissions only, never the
// MCP-management permission (WRITE_MCP) nor any MANAGE_* one.
export const CONNECTION_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((p) => p !== 'WRITE_MCP' && !p.startsWith('MANAGE_'));

export const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);

export function effectivePermissions(powerRole: 'ADMIN' | 'MEMBER', rolePermissions: unknown[]): Set<Permission> {
  if (powerRole === 'ADMIN') return new Set(PERMISSIONS);
  const union = new Set<Permission>();
  for (const list of rolePermissions) {
    if (!Array.isArray(list)) continue;
    for (const p of list) if (typeof p === 'string' && isPermission(p)) union.add(p);
  }
  return union;
}
