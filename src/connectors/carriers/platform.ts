import { OutboundTimeout } from '../../net/outbound.js';
import { DestinationRefused } from '../../net/network.js';
import type { Address } from '../../domain/fulfillment/index.js';
import { DomainError } from '../../domain/errors.js';
import type { RatePackage } from './types.js';
import { convertLength, convertWeight } from './units.js';

// What the platform adapters (easypost/, shippo/) share: address and parcel mapping, and how
// a platform's refusal becomes a message fos can show (never its credentials or raw internals).

export interface PlatformAddress {
  name: string | null;
  company: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  phone: string | null;
  email: string | null;
}

export const platformAddress = (a: Address): PlatformAddress => ({
  name: a.name ?? null,
  company: a.company ?? null,
  street1: a.address1 ?? null,
  street2: a.address2 ?? null,
  city: a.city ?? null,
  state: a.state ?? null,
  zip: a.zip ?? null,
  country: a.country ?? null,
  phone: a.phone ?? null,
  email: (a as { email?: string | null }).email ?? null,
});

/** Drops null members (platforms treat an explicit null differently from an absent field). */
export const compact = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;

/** The parcel in inches and ounces; a package without weight cannot be rated by a platform. */
export function parcelOf(pkg: RatePackage): { length: number | null; width: number | null; height: number | null; weight_oz: number } {
  if (pkg.weight === null || pkg.weight === undefined) {
    throw new DomainError('conflict', 'The package has no weight; set one (PATCH /v1/ops/packages/{package_id}) to rate it.');
  }
  const unit = pkg.measurement_unit ?? 'MM';
  const len = (v: number | null) => (v === null || v === undefined ? null : convertLength(v, unit, 'IN'));
  return {
    length: len(pkg.length),
    width: len(pkg.width),
    height: len(pkg.height),
    weight_oz: Math.max(0.1, Math.round(convertWeight(pkg.weight, pkg.weight_unit ?? 'G', 'OZ') * 10) / 10),
  };
}

/** A platform's refusal as a DomainError the rate errors and responses may show. */
/** The outbound layer gave up waiting (its deadline), anywhere in the error's causes. */
export function isNoAnswer(err: unknown): boolean {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as never, i++)
    if (e instanceof OutboundTimeout) return true;
  return false;
}

export function platformError(platform: string, err: unknown): DomainError {
  const e = err as { statusCode?: number; message?: string; code?: string; body?: string; rawResponse?: { status?: number } };
  const status = e?.statusCode ?? e?.rawResponse?.status;
  if (status === 401 || status === 403)
    return new DomainError('conflict', `${platform} refused the API key (HTTP ${status}): check the integration's credentials.`);
  if (e instanceof Error && (e.name === 'OutboundRefused' || e.constructor.name === 'OutboundRefused'))
    return new DomainError('conflict', `${platform}: ${e.message}`);
  if (isNoAnswer(err)) return new DomainError('unavailable', `${platform} did not answer in time (${(err as Error).message}).`);
  if (err instanceof DestinationRefused || (err as { cause?: unknown })?.cause instanceof DestinationRefused)
    return new DomainError('conflict', `${platform}: the address resolves to a private address (see --allow-private-webhooks)`);
  const text = typeof e?.message === 'string' ? e.message.slice(0, 300) : 'request failed';
  return new DomainError('conflict', `${platform} answered ${status ? `HTTP ${status}: ` : ''}${text}`);
}

/** "FedEx" -> "fedex", "USPS" -> "usps": a carrier_id from a platform's carrier name. */
export const carrierIdOf = (carrier: string) =>
  carrier
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
