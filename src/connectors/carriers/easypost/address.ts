import { asOperation } from '../../../net/deadlines.js';
import type { Address } from '../../../domain/fulfillment/index.js';
import type { CarrierAccount } from '../connector.js';
import { platformError } from '../platform.js';
import type { AddressCheck } from '../types.js';
import { easypostClient } from './carrier.js';

// Address verification through EasyPost (POST /addresses with verify delivery and zip4).
// EasyPost reports delivery success, errors, the corrected address, residential, latitude and
// longitude; the USPS-style metadata it does not report are derived from them (is_active = a
// deliverable address, dpv_match_code Y/N, record_type S for a street address, H with a unit)
// and are documented as such in docs/carriers.md.

/* eslint-disable @typescript-eslint/no-explicit-any -- EasyPost JSON */
export function verificationResponse(a: any): AddressCheck {
  const delivery = a?.verifications?.delivery ?? {};
  const verified = delivery.success === true;
  const details = delivery.details ?? {};
  const [zip5, zip4] = String(a?.zip ?? '').split('-');
  return {
    verified,
    residential: a?.residential === true ? 'RESIDENTIAL' : 'UNKNOWN',
    errors: (delivery.errors ?? []).map((e: any) => ({ message: String(e.message ?? ''), code: String(e.code ?? '') })),
    corrected_address: {
      street1: a?.street1 || null,
      street2: a?.street2 || null,
      city: a?.city || null,
      state: a?.state || null,
      zip5: zip5 || null,
      zip4: zip4 || null,
    },
    metadata: {
      is_active: verified,
      is_cmra: details.is_cmra === true,
      is_vacant: details.is_vacant === true,
      record_type: details.record_type ?? (verified ? (a?.street2 ? 'H' : 'S') : null),
      dpv_footnotes: details.dpv_footnotes ?? null,
      dpv_match_code: details.dpv_match_code ?? (verified ? 'Y' : 'N'),
      latitude: typeof details.latitude === 'number' ? details.latitude : null,
      longitude: typeof details.longitude === 'number' ? details.longitude : null,
    },
  };
}

export async function verifyAddress(account: CarrierAccount, a: Address): Promise<AddressCheck> {
  let answer: any;
  try {
    answer = await asOperation('verify', () =>
      easypostClient(account).Address.create({
        street1: a.address1,
        street2: a.address2 ?? undefined,
        city: a.city,
        state: a.state ?? undefined,
        zip: a.zip ?? undefined,
        country: a.country,
        name: a.name ?? undefined,
        company: a.company ?? undefined,
        verify: ['delivery', 'zip4'],
      }),
    );
  } catch (err) {
    throw platformError('EasyPost', err);
  }
  return verificationResponse(answer);
}
