import { createRequire } from 'node:module';
import { superagentOver } from '../../../net/adapters.js';
import { asOperation } from '../../../net/deadlines.js';
import type { Address } from '../../../domain/fulfillment/index.js';
import type { CarrierAccount } from '../connector.js';
import { carrierIdOf, compact, parcelOf, platformAddress, platformError } from '../platform.js';
import type {
  BuyOptions,
  CarrierAdapter,
  CustomsInfo,
  PurchasedLabel,
  Rate,
  RatePackage,
  RateQuote,
  Reconciled,
  RefundState,
} from '../types.js';
import { amountOf } from '../units.js';

// EasyPost through its official client (@easypost/api), pointed at the integration's
// api_base_url (the client's baseUrl option). Rating creates a shipment (POST /shipments, fos's
// purchase reference in `reference`) whose rates are quoted; buying is POST /shipments/{id}/buy
// of the chosen rate. EasyPost sells a shipment once, so a purchase is reconciled by reading the
// shipment back (GET /shipments/{id}: postage_label present = bought).

/* eslint-disable @typescript-eslint/no-explicit-any -- the client's objects are untyped JSON */
type Json = any;

// Loaded at the first call (~17 MiB with its HTTP stack), not at start: a server with no EasyPost
// integration never holds it (the idle RSS target, docs/performance.md).
let easypostClass: (new (key: string, opts: object) => Json) | undefined;
const easypostModule = () =>
  (easypostClass ??= ((m) => m.default ?? m)(createRequire(import.meta.url)('@easypost/api')) as new (key: string, opts: object) => Json);

export const EASYPOST_BASE_URL = 'https://api.easypost.com/v2';

export function easypostClient(account: Pick<CarrierAccount, 'credentials' | 'api_base_url' | 'policy'>) {
  const baseUrl = (account.api_base_url ?? EASYPOST_BASE_URL).replace(/\/$/, '');
  const Client = easypostModule();
  // The client's `timeout` is stored and never applied (8.9): its HTTP goes through the outbound
  // layer instead (superagentMiddleware swaps the superagent it calls), which owns the deadlines.
  return new Client(account.credentials?.api_key ?? '', {
    baseUrl: `${baseUrl}/`,
    superagentMiddleware: () => superagentOver({ platform: 'easypost', allowPrivate: account.policy.allowPrivate }),
  });
}

// Shippo's name (the config may carry either platform's) for EasyPost's returned_goods.
const easypostContentsType = (t: string) => (t.toUpperCase() === 'RETURN_MERCHANDISE' ? 'returned_goods' : t.toLowerCase());

const customsInfo = (c: CustomsInfo) =>
  compact({
    contents_type: easypostContentsType(c.contents_type),
    contents_explanation: c.contents_explanation,
    customs_signer: c.signer,
    customs_certify: c.certify,
    non_delivery_option: c.non_delivery_option.toLowerCase(),
    restriction_type: c.restriction_type.toLowerCase(),
    restriction_comments: c.restriction_comments,
    eel_pfc: c.eel_pfc,
    customs_items: c.items.map((i) =>
      compact({
        description: i.description,
        quantity: i.quantity,
        value: i.value,
        currency: i.currency,
        weight: Math.max(0.1, Math.round((i.weight_g / 28.349523125) * 10) / 10),
        hs_tariff_number: i.hs_code,
        origin_country: i.origin_country,
        eccn: i.eccn,
      }),
    ),
  });

export class EasyPostCarrier implements CarrierAdapter {
  readonly type = 'EASYPOST';
  readonly remote = true;
  readonly id: string;
  readonly name: string;
  private readonly client: Json;

  constructor(private readonly account: CarrierAccount) {
    this.id = account.id;
    this.name = account.name;
    this.client = easypostClient(account);
  }

  private label(s: Json, rate: Rate | null): PurchasedLabel {
    const sel = s.selected_rate ?? {};
    const carrier = String(sel.carrier ?? rate?.carrier_name ?? '');
    const service = String(sel.service ?? rate?.service_name ?? '');
    const zpl = s.postage_label?.label_file_type === 'application/zpl' || !!s.postage_label?.label_zpl_url;
    const invoice = (s.forms ?? []).find((f: Json) => f.form_type === 'commercial_invoice');
    const days = sel.delivery_days ?? sel.est_delivery_days ?? null;
    return {
      tracking_code: String(s.tracking_code),
      tracking_url: s.tracker?.public_url ?? null,
      label_url: null,
      remote_id: s.id,
      remote_transaction_id: null,
      price: amountOf(sel.rate) ?? 0,
      currency: sel.currency ?? 'USD',
      list_rate: amountOf(sel.list_rate),
      retail_rate: amountOf(sel.retail_rate),
      formatted_service: `${carrier} ${service}`.trim(),
      carrier_name: carrier,
      carrier_id: carrierIdOf(carrier),
      service_id: service,
      delivery_days: typeof days === 'number' ? days : null,
      delivery_date: sel.delivery_date ? new Date(sel.delivery_date) : null,
      delivery_date_guaranteed: !!sel.delivery_date_guaranteed,
      zone: s.usps_zone != null ? String(s.usps_zone) : null,
      download_url: zpl
        ? (s.postage_label.label_zpl_url ?? s.postage_label.label_url)
        : (s.postage_label.label_pdf_url ?? s.postage_label.label_url),
      download_format: zpl ? 'ZPL' : 'PDF',
      commercial_invoice_url: invoice?.form_url ?? null,
    };
  }

  async rate(pkg: RatePackage, to: Address, customs?: CustomsInfo | null): Promise<RateQuote> {
    const p = parcelOf(pkg);
    let s: Json;
    try {
      s = await asOperation('rates', () =>
        this.client.Shipment.create(
          compact({
            to_address: compact(platformAddress(to)),
            from_address: compact(platformAddress(pkg.from)),
            parcel: compact({ length: p.length, width: p.width, height: p.height, weight: p.weight_oz }),
            reference: pkg.id,
            // EasyPost takes the incoterm as a shipment option, not in customs_info.
            // delivery_confirmation: EasyPost's own values (NO_SIGNATURE, SIGNATURE, ADULT_SIGNATURE).
            options: compact({
              label_format: pkg.label_format ?? 'PDF',
              label_size: '4x6',
              incoterm: customs?.incoterm ?? null,
              delivery_confirmation: pkg.delivery_confirmation ?? null,
            }),
            customs_info: customs ? customsInfo(customs) : null,
          }),
        ),
      );
    } catch (err) {
      throw platformError('EasyPost', err);
    }
    const enabled = this.account.enabled_carriers?.map(carrierIdOf) ?? null;
    const rates: Rate[] = (s.rates ?? [])
      .filter((r: Json) => !enabled || enabled.includes(carrierIdOf(String(r.carrier))))
      .map((r: Json) => ({
        currency: r.currency ?? 'USD',
        amount: amountOf(r.rate) ?? 0,
        service_name: String(r.service),
        carrier_name: String(r.carrier),
        service_id: String(r.service),
        carrier_id: carrierIdOf(String(r.carrier)),
        carrier_integration_type: this.type,
        carrier_integration_id: this.id,
        estimated_days: r.delivery_days ?? r.est_delivery_days ?? null,
        delivery_date_guaranteed: !!r.delivery_date_guaranteed,
        delivery_date: r.delivery_date ? new Date(r.delivery_date) : null,
        provider_rate_id: String(r.id),
        remote_shipment_id: String(s.id),
        list_rate: amountOf(r.list_rate),
        retail_rate: amountOf(r.retail_rate),
      }));
    const errors = (s.messages ?? []).map((m: Json) => ({
      carrier_type: this.id,
      message: `EasyPost ${m.carrier ?? ''}: ${m.message}`.replace('  ', ' '),
    }));
    return { rates, errors };
  }

  async buy(rate: Rate, pkg: RatePackage, _to: Address, opts?: BuyOptions): Promise<PurchasedLabel> {
    try {
      // The label format is a shipment option: set before buying (EasyPost answers 4x6 PDF or ZPL).
      // Insurance is bought with the label: POST /shipments/{id}/buy { rate, insurance: "<amount>" }.
      const insurance = pkg.insured_amount ? pkg.insured_amount.toFixed(2) : null;
      const bought = await asOperation('purchase', () =>
        this.client.Shipment.buy(rate.remote_shipment_id, rate.provider_rate_id, insurance),
      );
      if (opts?.format === 'ZPL' && !bought.postage_label?.label_zpl_url) {
        const converted = await asOperation('purchase', () => this.client.Shipment.convertLabelFormat(bought.id, 'ZPL'));
        return this.label(converted, rate);
      }
      return this.label(bought, rate);
    } catch (err) {
      throw platformError('EasyPost', err);
    }
  }

  async reconcile(remoteShipmentId: string | null, _rateId: string, opts: BuyOptions): Promise<Reconciled> {
    if (!remoteShipmentId) return { bought: false };
    try {
      const s = await asOperation('reconcile', () => this.client.Shipment.retrieve(remoteShipmentId));
      if (!s.postage_label || !s.tracking_code) return { bought: false };
      if (opts.format === 'ZPL' && !s.postage_label.label_zpl_url)
        return {
          bought: true,
          label: this.label(await asOperation('reconcile', () => this.client.Shipment.convertLabelFormat(s.id, 'ZPL')), null),
        };
      return { bought: true, label: this.label(s, null) };
    } catch (err) {
      throw platformError('EasyPost', err);
    }
  }

  /** GET /shipments/{id}: refund_status null = never requested. */
  async refundStatus(label: { remote_id: string | null }): Promise<RefundState | null> {
    if (!label.remote_id) return null;
    try {
      const s = await asOperation('reconcile', () => this.client.Shipment.retrieve(label.remote_id));
      return s.refund_status ? refundState(s.refund_status) : null;
    } catch (err) {
      throw platformError('EasyPost', err);
    }
  }

  async refund(label: { remote_id: string | null }): Promise<RefundState> {
    try {
      const s = await asOperation('refund', () => this.client.Shipment.refund(label.remote_id));
      return refundState(s.refund_status);
    } catch (err) {
      throw platformError('EasyPost', err);
    }
  }
}

/** EasyPost's refund_status (submitted, refunded, rejected, not_applicable) as fos's. */
export const refundState = (s: unknown): RefundState =>
  s === 'refunded' ? 'REFUNDED' : s === 'rejected' || s === 'not_applicable' ? 'REJECTED' : 'SUBMITTED';
