import { createHash } from 'node:crypto';
import { ADDRESS_FIELDS } from '../../contract/enums.js';
export { ADDRESS_FIELDS };
import { COUNTRY_CODES } from '../../contract/iso.js';

// Offline, deterministic address check. No carrier or postal service is called: the result
// depends only on the fields, so the same address always gives the same answer (and hash).

export interface Address {
  name?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  zip?: string | null;
  phone?: string | null;
}

/** An address as stored in a Json column (an object, else empty); `A` adds what the column holds more (a package's email). */
export function asAddress<A extends Address = Address>(value: unknown): A {
  return (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as A;
}

export interface AddressVerification {
  verified: boolean;
  residential: 'RESIDENTIAL' | 'UNKNOWN';
  errors: { message: string; code: string }[];
  corrected_address: {
    street1: string | null;
    street2: string | null;
    city: string | null;
    state: string | null;
    zip5: string | null;
    zip4: string | null;
  };
  metadata: {
    is_active: boolean;
    is_cmra: boolean;
    is_vacant: boolean;
    record_type: string | null;
    dpv_footnotes: string | null;
    dpv_match_code: string | null;
    latitude: number | null;
    longitude: number | null;
  };
}

// Countries that need a state/province, and those without postal codes.
const NEEDS_STATE = new Set(['US', 'CA', 'AU', 'MX', 'BR', 'IN']);
const NO_POSTCODE = new Set(['HK', 'AE', 'QA', 'BS', 'JM', 'PA', 'FJ', 'BO']);
const ZIP_RULES: Record<string, RegExp> = {
  US: /^\d{5}(-?\d{4})?$/,
  CA: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  NL: /^\d{4} ?[A-Z]{2}$/,
  AU: /^\d{4}$/,
};

const COUNTRIES = new Set<string>(COUNTRY_CODES);

const clean = (v: string | null | undefined) => (typeof v === 'string' && v.trim() ? v.trim().replace(/\s+/g, ' ') : null);

export function verifyAddress(address: Address | null | undefined): AddressVerification {
  const a = address ?? {};
  const errors: { message: string; code: string }[] = [];
  const country = clean(a.country)?.toUpperCase() ?? null;
  const zip = clean(a.zip)?.toUpperCase() ?? null;
  const state = clean(a.state);
  if (!clean(a.name) && !clean(a.company)) errors.push({ code: 'MISSING_RECIPIENT', message: 'A name or company is required.' });
  if (!clean(a.address1)) errors.push({ code: 'MISSING_STREET', message: 'address1 is required.' });
  if (!clean(a.city)) errors.push({ code: 'MISSING_CITY', message: 'city is required.' });
  if (!country) errors.push({ code: 'MISSING_COUNTRY', message: 'country is required.' });
  else if (!COUNTRIES.has(country)) errors.push({ code: 'INVALID_COUNTRY', message: 'country must be an ISO 3166-1 alpha-2 code.' });
  if (country && NEEDS_STATE.has(country) && !state) errors.push({ code: 'MISSING_STATE', message: `state is required for ${country}.` });
  if (country === 'US' && state && !/^[A-Za-z]{2}$/.test(state)) {
    errors.push({ code: 'INVALID_STATE', message: 'state must be a two-letter code for US addresses.' });
  }
  if (!zip && country && !NO_POSTCODE.has(country)) errors.push({ code: 'MISSING_ZIP', message: 'zip is required.' });
  else if (zip && country && ZIP_RULES[country] && !ZIP_RULES[country].test(zip)) {
    errors.push({ code: 'INVALID_ZIP', message: `zip ${zip} is not a valid ${country} postal code.` });
  }

  const verified = errors.length === 0;
  const usZip = country === 'US' && zip ? /^(\d{5})-?(\d{4})?$/.exec(zip) : null;
  const upper = (v: string | null | undefined) => clean(v)?.toUpperCase() ?? null;
  return {
    verified,
    residential: clean(a.company) ? 'UNKNOWN' : 'RESIDENTIAL',
    errors,
    corrected_address: {
      street1: upper(a.address1),
      street2: upper(a.address2),
      city: upper(a.city),
      state: upper(state),
      zip5: usZip ? usZip[1] : zip,
      zip4: usZip?.[2] ?? null,
    },
    metadata: {
      is_active: verified,
      is_cmra: false,
      is_vacant: false,
      record_type: verified ? (clean(a.company) ? 'H' : 'S') : null,
      dpv_footnotes: verified ? 'AABB' : 'A1',
      dpv_match_code: verified ? 'Y' : 'N',
      latitude: null,
      longitude: null,
    },
  };
}

/** SHA-256 of the normalized shipping address: equal addresses hash equal (batching, dedupe). */
export function addressHash(address: Address | null | undefined): string | null {
  if (!address) return null;
  const parts = ADDRESS_FIELDS.filter((f) => f !== 'phone').map((f) => clean(address[f])?.toLowerCase() ?? '');
  return createHash('sha256').update(parts.join('|')).digest('hex');
}

/** The nine address fields, each null when absent. */
export function normalizeAddress(address: Address | null | undefined): Record<(typeof ADDRESS_FIELDS)[number], string | null> | null {
  if (!address) return null;
  return Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, clean(address[f])])) as Record<(typeof ADDRESS_FIELDS)[number], string | null>;
}
