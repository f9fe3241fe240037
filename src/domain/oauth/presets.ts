import { PERMISSIONS, type Permission } from '../../contract/permissions.js';

// What an agent connection may hold (spec 5.3): operational permissions only, never the
// MCP-management permission (WRITE_MCP) nor any MANAGE_* one.
export const CONNECTION_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((p) => p !== 'WRITE_MCP' && !p.startsWith('MANAGE_'));

export { CONNECTION_STATES } from '../../contract/enums.js';

export const PRESETS = ['READ_ONLY', 'READ_AND_OPERATE', 'FULL_OPERATIONAL', 'CUSTOM'] as const;
export type Preset = (typeof PRESETS)[number];

export const PRESET_LABELS: Record<Preset, string> = {
  READ_ONLY: 'Read only',
  READ_AND_OPERATE: 'Read and operate',
  FULL_OPERATIONAL: 'Full operational access',
  CUSTOM: 'Custom permissions',
};

export const PRESET_DESCRIPTIONS: Record<Preset, string> = {
  READ_ONLY: 'Look up products, orders, fulfillments, inventory, charges, files and vendors. Changes nothing.',
  READ_AND_OPERATE: 'Read everything, and do the daily floor work: orders, fulfillment and inventory.',
  FULL_OPERATIONAL: 'Every operational permission you hold, including products, charges, files and vendors.',
  CUSTOM: 'Pick the permissions yourself.',
};

const READS = CONNECTION_PERMISSIONS.filter((p) => p.startsWith('READ_'));
const OPERATE: Permission[] = ['WRITE_ORDERS', 'WRITE_FULFILLMENTS', 'WRITE_INVENTORY'];

/** The permissions a preset asks for, before they are bounded by what the person holds. */
export function presetPermissions(preset: Preset, custom: readonly string[] = []): Permission[] {
  switch (preset) {
    case 'READ_ONLY':
      return [...READS];
    case 'READ_AND_OPERATE':
      return [...READS, ...OPERATE];
    case 'FULL_OPERATIONAL':
      return [...CONNECTION_PERMISSIONS];
    case 'CUSTOM':
      return CONNECTION_PERMISSIONS.filter((p) => custom.includes(p));
  }
}

/** What a connection may do now: what it was granted, bounded by what its person holds now. */
export function grantable(requested: Iterable<string>, held: ReadonlySet<Permission>): Permission[] {
  const wanted = new Set(requested);
  return CONNECTION_PERMISSIONS.filter((p) => wanted.has(p) && held.has(p));
}
