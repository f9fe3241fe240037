// Package config (spec 2.7): packing-slip options and customs / shipping options. A package
// starts from these defaults, overlaid with the order's config (same keys, 2.6) and then the
// request's config; unknown keys are ignored when copying from the order.

export type ConfigKind = 'boolean' | 'string' | 'number' | 'insurance';

export const PACKAGE_CONFIG: Record<string, { kind: ConfigKind; default: unknown }> = {
  require_pack_shot: { kind: 'boolean', default: false },
  show_unfulfilled_items_on_packing_list: { kind: 'boolean', default: false },
  show_prices_on_packing_slip: { kind: 'boolean', default: false },
  incoterm: { kind: 'string', default: 'FAS' },
  incoterm_location: { kind: 'string', default: null },
  eel_pfc: { kind: 'string', default: null },
  delivery_confirmation: { kind: 'string', default: 'NO_SIGNATURE' },
  saturday_delivery: { kind: 'boolean', default: false },
  insurance_policy: { kind: 'insurance', default: { mode: 'none' } },
  customs_signer: { kind: 'string', default: null },
  customs_signer_title: { kind: 'string', default: null },
  customs_certify: { kind: 'boolean', default: false },
  non_delivery_option: { kind: 'string', default: 'ABANDON' },
  restriction_type: { kind: 'string', default: 'NONE' },
  restriction_comments: { kind: 'string', default: null },
  contents_type: { kind: 'string', default: 'OTHER' },
  contents_explanation: { kind: 'string', default: null },
  commercial_invoice_transaction_reason: { kind: 'string', default: 'SALE' },
  declaration: { kind: 'string', default: null },
  commercial_invoice_payment_terms: { kind: 'string', default: null },
  commercial_invoice_transport_mode: { kind: 'string', default: null },
  commercial_invoice_port_of_entry: { kind: 'string', default: null },
  commercial_invoice_country_of_transshipment: { kind: 'string', default: null },
  commercial_invoice_package_marks: { kind: 'string', default: null },
  commercial_invoice_freight_amount: { kind: 'number', default: null },
  commercial_invoice_discount_amount: { kind: 'number', default: null },
  commercial_invoice_other_charge_amount: { kind: 'number', default: null },
  commercial_invoice_other_charge_description: { kind: 'string', default: null },
  commercial_invoice_importer_tax_id: { kind: 'string', default: null },
  commercial_invoice_importer_vat: { kind: 'string', default: null },
  commercial_invoice_importer_eori: { kind: 'string', default: null },
  commercial_invoice_importer_ioss: { kind: 'string', default: null },
  commercial_invoice_vat_statement: { kind: 'string', default: null },
  commercial_invoice_export_license_number: { kind: 'string', default: null },
  destination_control_statement_required: { kind: 'boolean', default: false },
};

export type PackageConfig = Record<string, unknown>;

const fits = (kind: ConfigKind, v: unknown) =>
  v === null || (kind === 'insurance' ? typeof v === 'object' && !Array.isArray(v) : typeof v === kind);

/** Known keys only, values of the right kind only; nulls only when keepNull (a caller clearing a value). */
function known(source: unknown, keepNull: boolean): PackageConfig {
  const out: PackageConfig = {};
  if (!source || typeof source !== 'object' || Array.isArray(source)) return out;
  for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
    const spec = PACKAGE_CONFIG[k];
    if (spec && v !== undefined && (v !== null || keepNull) && fits(spec.kind, v)) out[k] = v;
  }
  return out;
}

/**
 * The full config: defaults <- inherited (e.g. the order's config; its nulls mean "not set")
 * <- explicit (the stored package config, then the request's; nulls clear a value).
 */
export function resolveConfig(inherited: unknown, ...explicit: unknown[]): PackageConfig {
  const out: PackageConfig = {};
  for (const [k, spec] of Object.entries(PACKAGE_CONFIG)) out[k] = spec.default;
  Object.assign(out, known(inherited, false));
  for (const layer of explicit) Object.assign(out, known(layer, true));
  return out;
}
