import { CONNECTION_PERMISSIONS, type Permission } from '../../contract/permissions.js';
import { PRESETS } from '../../contract/enums.js';
export { PRESETS };
export { CONNECTION_PERMISSIONS };

export { CONNECTION_STATES } from '../../contract/enums.js';

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
