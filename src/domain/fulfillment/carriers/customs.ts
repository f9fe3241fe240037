import type { Db, TxClient } from '../../../db/types.js';
import { asAddress } from '../lookups.js';
import type { CustomsInfo } from '../../../connectors/carriers/types.js';
import { convertWeight } from '../../../connectors/carriers/units.js';
import { findPackageLines } from '../store/carriers.js';

// Customs data of an international package (destination country differs from the origin's):
// the package lines (customs description/value, HS code, origin country, ECCN, weight) and the
// package config (customs_signer, contents_type, incoterm, non_delivery_option, eel_pfc,
// restriction_type …, spec 2.7), sent to the platform as its customs info (each connector maps
// it to its platform's fields).

type Client = Db['prisma'] | TxClient;

interface PackageForCustoms {
  id: string;
  from_address: unknown;
  to_address: unknown;
  config: unknown;
}

export function isInternational(pkg: PackageForCustoms): boolean {
  const from = asAddress(pkg.from_address).country?.trim().toUpperCase();
  const to = asAddress(pkg.to_address).country?.trim().toUpperCase();
  return !!from && !!to && from !== to;
}

export async function customsOf(client: Client, pkg: PackageForCustoms): Promise<CustomsInfo | null> {
  if (!isInternational(pkg)) return null;
  const c = (pkg.config && typeof pkg.config === 'object' ? pkg.config : {}) as Record<string, unknown>;
  const str = (k: string) => (typeof c[k] === 'string' && c[k] ? (c[k] as string) : null);
  const lines = await findPackageLines(client, pkg.id);
  return {
    contents_type: str('contents_type') ?? 'MERCHANDISE',
    contents_explanation: str('contents_explanation'),
    signer: str('customs_signer') ?? '',
    certify: c.customs_certify === true,
    non_delivery_option: str('non_delivery_option') ?? 'RETURN',
    restriction_type: str('restriction_type') ?? 'NONE',
    restriction_comments: str('restriction_comments'),
    eel_pfc: str('eel_pfc'),
    incoterm: str('incoterm'),
    items: lines.map((l) => ({
      description: l.customs_description ?? l.name ?? l.sku ?? 'Item',
      quantity: l.quantity,
      value: Math.round((l.customs_value ?? 0) * l.quantity * 100) / 100,
      currency: l.customs_value_currency ?? 'USD',
      weight_g: l.weight !== null ? convertWeight(l.weight * l.quantity, l.weight_unit ?? 'G', 'G') : 0,
      hs_code: l.hs_code,
      origin_country: l.country_of_origin,
      eccn: l.eccn,
    })),
  };
}
