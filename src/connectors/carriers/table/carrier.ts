import { randomBytes, randomUUID } from 'node:crypto';
import { teamCarrierRates } from '../../../domain/carrier-integrations/index.js';
import type { Address } from '../../../domain/fulfillment/index.js';
import type { CarrierAccount } from '../connector.js';
import { carrierSlug, trackingUrl } from '../tracking.js';
import type { CarrierAdapter, PurchasedLabel, Rate, RatePackage, RateQuote } from '../types.js';
import { convertWeight, money } from '../units.js';

// The built-in carrier: an offline rate table (CarrierRate rows the operator configures).
// price = amount + per_unit_weight * weight (weight in the row's weight_unit); max_weight and
// countries restrict which packages a service takes. Buying issues a tracking code; the printable
// label is fos's own document (PDF or ZPL at label_url); nothing leaves the machine.

const DAY = 86_400_000;

export class TableCarrier implements CarrierAdapter {
  readonly type = 'TABLE';
  readonly remote = false;
  readonly id: string;
  readonly name: string;

  constructor(private readonly account: Pick<CarrierAccount, 'db' | 'team_id' | 'id' | 'name'>) {
    this.id = account.id;
    this.name = account.name;
  }

  async rate(pkg: RatePackage, to: Address): Promise<RateQuote> {
    const rows = await teamCarrierRates(this.account.db, this.account.team_id);
    const err = (message: string) => ({ carrier_type: 'table', message });
    if (!rows.length) return { rates: [], errors: [err('No carrier rates are configured (POST /v1/ops/carrier-rates).')] };
    if (pkg.weight === null || pkg.weight === undefined) {
      return { rates: [], errors: [err('The package has no weight; set one (PATCH /v1/ops/packages/{package_id}) to rate it.')] };
    }
    const country = to.country?.trim().toUpperCase() || null;
    const rates: Rate[] = [];
    const errors = [];
    for (const r of rows) {
      const service = `${r.carrier_name} ${r.service_name}`;
      const weight = convertWeight(pkg.weight, pkg.weight_unit ?? 'G', r.weight_unit);
      const countries = Array.isArray(r.countries) ? (r.countries as unknown[]).map((c) => String(c).toUpperCase()) : null;
      if (r.max_weight !== null && weight > r.max_weight) {
        errors.push(err(`${service}: ${weight} ${r.weight_unit} is above its maximum of ${r.max_weight} ${r.weight_unit}.`));
      } else if (countries && (!country || !countries.includes(country))) {
        errors.push(err(`${service}: does not ship to ${country ?? 'an address without a country'} (ships to ${countries.join(', ')}).`));
      } else {
        rates.push({
          currency: r.currency,
          amount: money(r.amount + r.per_unit_weight * weight),
          service_name: r.service_name,
          carrier_name: r.carrier_name,
          service_id: r.service_id,
          carrier_id: r.carrier_id,
          carrier_integration_type: this.type,
          carrier_integration_id: this.id,
          estimated_days: r.estimated_days,
          delivery_date_guaranteed: r.delivery_date_guaranteed,
          delivery_date: r.estimated_days !== null ? new Date(Date.now() + r.estimated_days * DAY) : null,
          provider_rate_id: r.id,
        });
      }
    }
    return { rates, errors };
  }

  async buy(rate: Rate, _pkg: RatePackage, _to: Address): Promise<PurchasedLabel> {
    const digits = BigInt(`0x${randomBytes(8).toString('hex')}`)
      .toString()
      .padStart(20, '0')
      .slice(0, 16);
    const code = `${carrierSlug(rate.carrier_id).replace(/_/g, '').slice(0, 3).toUpperCase()}${digits}`;
    return {
      tracking_code: code,
      tracking_url: trackingUrl(rate.carrier_name, code) ?? trackingUrl(rate.carrier_id, code),
      label_url: null, // the printable label is rendered by fos (documents/shipping-label.ts)
      remote_id: `tbl_${randomUUID()}`,
      price: rate.amount,
      currency: rate.currency,
      formatted_service: `${rate.carrier_name} ${rate.service_name}`,
      carrier_name: rate.carrier_name,
      carrier_id: rate.carrier_id,
      service_id: rate.service_id,
      delivery_days: rate.estimated_days,
      delivery_date: rate.delivery_date,
      delivery_date_guaranteed: rate.delivery_date_guaranteed,
      zone: null,
    };
  }
}
