// Package config (spec 2.7): packing-slip options and customs / shipping options. A package
// starts from these defaults, overlaid with the order's config (same keys, 2.6) and then the
// request's config; unknown keys are ignored when copying from the order.

import { PACKAGE_CONFIG, type ConfigKind } from '../../contract/package-config.js';
export { PACKAGE_CONFIG, type ConfigKind };

export type PackageConfig = Record<string, unknown>;

const fits = (kind: ConfigKind, v: unknown) =>
  v === null || (kind === 'insurance' ? typeof v === 'object' && !Array.isArray(v) : typeof v === kind);

/**
 * Copies onto `out` the known keys of `source`, values of the right kind only; nulls only when
 * keepNull (a caller clearing a value). Straight onto `out`, whose keys are all there already: a
 * fresh object of ~40 keys per layer, then copied, cost most of a package view (~3 us of ~8).
 */
function assignKnown(out: PackageConfig, source: unknown, keepNull: boolean): void {
  if (!source || typeof source !== 'object' || Array.isArray(source)) return;
  const o = source as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k === '__proto__') continue; // (a layer object took it as its prototype, and Object.assign copied nothing)
    const v = o[k];
    const spec = PACKAGE_CONFIG[k];
    if (spec && v !== undefined && (v !== null || keepNull) && fits(spec.kind, v)) out[k] = v;
  }
}

/** Every key at its default, in PACKAGE_CONFIG's order (built once: every package shown resolves its config). */
const DEFAULTS: PackageConfig = Object.fromEntries(Object.entries(PACKAGE_CONFIG).map(([k, spec]) => [k, spec.default]));

/**
 * The full config: defaults <- inherited (e.g. the order's config; its nulls mean "not set")
 * <- explicit (the stored package config, then the request's; nulls clear a value).
 */
export function resolveConfig(inherited: unknown, ...explicit: unknown[]): PackageConfig {
  const out: PackageConfig = { ...DEFAULTS };
  assignKnown(out, inherited, false);
  for (const layer of explicit) assignKnown(out, layer, true);
  return out;
}
