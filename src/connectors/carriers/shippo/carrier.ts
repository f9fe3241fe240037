import { createRequire } from 'node:module';
import type { Shippo } from 'shippo';
import type { HTTPClient } from 'shippo/lib/http.js';
import { outboundFetch } from '../../../net/adapters.js';
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
import { shippoEelPfc, shippoIncoterm } from './customs.js';

// Shippo through its official client (shippo), pointed at the integration's api_base_url (the
// client's serverURL) and speaking through fos's outbound policy (its httpClient's fetcher).
// Rating creates a shipment (POST /shipments, synchronous) whose rates are quoted; buying is a
// transaction for the chosen rate (POST /transactions, metadata = fos's purchase reference). A
// rate is sold at most once per transaction list, so a purchase is reconciled by listing the
// rate's transactions (GET /transactions?rate=…): a SUCCESS one = bought.

/* eslint-disable @typescript-eslint/no-explicit-any -- the client's objects as parsed */
type Json = any;

// The client (and zod under it, ~100 modules) is loaded when a Shippo integration is first used,
// not at every start of fos serve (test/e2e/serve-footprint.test.ts).
let shippoModule: { Shippo: typeof Shippo; HTTPClient: typeof HTTPClient } | undefined;
const loadShippo = () => {
  const require = createRequire(import.meta.url);
  return (shippoModule ??= { Shippo: require('shippo').Shippo, HTTPClient: require('shippo/lib/http.js').HTTPClient });
};

export const SHIPPO_BASE_URL = 'https://api.goshippo.com';

export function shippoClient(account: Pick<CarrierAccount, 'credentials' | 'api_base_url' | 'policy'>) {
  const fetcher = outboundFetch({ platform: 'shippo', allowPrivate: account.policy.allowPrivate });
  const { Shippo: Client, HTTPClient: Http } = loadShippo();
  // The client's own timeoutMs re-wraps the request with a signal that can stop following its
  // timer (issue 37): the outbound layer's fetch is its transport and owns the deadline instead.
  const httpClient = new Http({ fetcher: (input: unknown, init?: RequestInit) => fetcher(input as never, init) });
  return new Client({
    apiKeyHeader: `ShippoToken ${account.credentials?.api_key ?? ''}`,
    serverURL: (account.api_base_url ?? SHIPPO_BASE_URL).replace(/\/$/, ''),
    httpClient,
    retryConfig: { strategy: 'none' },
  });
}

const customsDeclaration = (c: CustomsInfo) =>
  compact({
    contentsType: c.contents_type.toUpperCase(),
    contentsExplanation: c.contents_explanation ?? undefined,
    certify: c.certify,
    certifySigner: c.signer,
    nonDeliveryOption: c.non_delivery_option.toUpperCase(),
    ...shippoEelPfc(c.eel_pfc),
    incoterm: shippoIncoterm(c.incoterm),
    items: c.items.map((i) =>
      compact({
        description: i.description,
        quantity: i.quantity,
        netWeight: String(i.weight_g),
        massUnit: 'g',
        valueAmount: String(i.value),
        valueCurrency: i.currency,
        originCountry: i.origin_country ?? 'US',
        tariffNumber: i.hs_code ?? undefined,
        eccnEar99: i.eccn ?? undefined,
      }),
    ),
  }) as Json;

// Shippo's extra.signature_confirmation for fos's delivery_confirmation; NO_SIGNATURE asks for none.
const SIGNATURES: Record<string, string> = { SIGNATURE: 'STANDARD', ADULT_SIGNATURE: 'ADULT' };

/** Signature and insurance as Shippo's shipment extra (extra.signature_confirmation, extra.insurance { amount, currency, content }). */
const shippoExtra = (pkg: RatePackage): { extra?: Json } => {
  const signature = pkg.delivery_confirmation ? SIGNATURES[pkg.delivery_confirmation] : undefined;
  const extra = compact({
    signatureConfirmation: signature,
    insurance: pkg.insured_amount ? { amount: pkg.insured_amount.toFixed(2), currency: 'USD', content: 'Merchandise' } : undefined,
  });
  return Object.keys(extra).length ? { extra: extra as Json } : {};
};

export class ShippoCarrier implements CarrierAdapter {
  readonly type = 'SHIPPO';
  readonly remote = true;
  readonly id: string;
  readonly name: string;
  private readonly client: Shippo;

  constructor(private readonly account: CarrierAccount) {
    this.id = account.id;
    this.name = account.name;
    this.client = shippoClient(account);
  }

  async rate(pkg: RatePackage, to: Address, customs?: CustomsInfo | null): Promise<RateQuote> {
    const p = parcelOf(pkg);
    const declaration = customs ? customsDeclaration(customs) : null; // a 409 of its own, outside the platform's errors
    let s: Json;
    try {
      s = await asOperation('rates', () =>
        this.client.shipments.create({
          addressFrom: compact(platformAddress(pkg.from)) as Json,
          addressTo: compact(platformAddress(to)) as Json,
          async: false,
          metadata: pkg.id,
          parcels: [
            compact({
              length: String(p.length ?? 1),
              width: String(p.width ?? 1),
              height: String(p.height ?? 1),
              distanceUnit: 'in',
              weight: String(p.weight_oz),
              massUnit: 'oz',
            }) as Json,
          ],
          ...(declaration ? { customsDeclaration: declaration } : {}),
          ...shippoExtra(pkg),
        }),
      );
    } catch (err) {
      throw platformError('Shippo', err);
    }
    const enabled = this.account.enabled_carriers?.map(carrierIdOf) ?? null;
    const rates: Rate[] = (s.rates ?? [])
      .filter((r: Json) => !enabled || enabled.includes(carrierIdOf(r.provider)))
      .map((r: Json) => ({
        currency: r.currency,
        amount: amountOf(r.amount) ?? 0,
        service_name: r.servicelevel?.name ?? '',
        carrier_name: r.provider,
        service_id: r.servicelevel?.token ?? '',
        carrier_id: carrierIdOf(r.provider),
        carrier_integration_type: this.type,
        carrier_integration_id: this.id,
        estimated_days: r.estimatedDays ?? null,
        delivery_date_guaranteed: false,
        delivery_date: r.arrivesBy ? new Date(r.arrivesBy) : null,
        provider_rate_id: r.objectId,
        remote_shipment_id: s.objectId,
        list_rate: null,
        retail_rate: null,
      }));
    const errors = (s.messages ?? []).map((m: Json) => ({
      carrier_type: this.id,
      message: `Shippo ${m.source ?? ''}: ${m.text}`.replace('  ', ' '),
    }));
    return { rates, errors };
  }

  private label(t: Json, rate: Rate | null, opts: BuyOptions): PurchasedLabel {
    const r = typeof t.rate === 'object' && t.rate ? t.rate : {};
    const carrier = String(r.provider ?? rate?.carrier_name ?? '');
    const service = String(r.servicelevelName ?? rate?.service_name ?? '');
    return {
      tracking_code: String(t.trackingNumber),
      tracking_url: t.trackingUrlProvider ?? null,
      label_url: null,
      remote_id: rate?.remote_shipment_id ?? null,
      remote_transaction_id: t.objectId ?? null,
      price: amountOf(r.amount) ?? rate?.amount ?? 0,
      currency: r.currency ?? rate?.currency ?? 'USD',
      list_rate: null,
      retail_rate: null,
      formatted_service: `${carrier} ${service}`.trim(),
      carrier_name: carrier,
      carrier_id: carrierIdOf(carrier),
      service_id: rate?.service_id ?? service,
      delivery_days: rate?.estimated_days ?? null,
      delivery_date: t.eta ? new Date(t.eta) : (rate?.delivery_date ?? null),
      delivery_date_guaranteed: false,
      zone: null,
      download_url: t.labelUrl ?? null,
      download_format: opts.format,
      commercial_invoice_url: t.commercialInvoiceUrl ?? null,
    };
  }

  async buy(rate: Rate, _pkg: RatePackage, _to: Address, opts: BuyOptions = { format: 'PDF', reference: '' }): Promise<PurchasedLabel> {
    let t: Json;
    try {
      t = await asOperation('purchase', () =>
        this.client.transactions.create({
          rate: rate.provider_rate_id,
          async: false,
          labelFileType: opts.format === 'ZPL' ? 'ZPLII' : 'PDF_4x6',
          metadata: opts.reference,
        }),
      );
    } catch (err) {
      throw platformError('Shippo', err);
    }
    if (t.status !== 'SUCCESS') {
      const why =
        (t.messages ?? [])
          .map((m: Json) => m.text)
          .filter(Boolean)
          .join('; ') || `transaction ${t.status}`;
      throw platformError('Shippo', new Error(`the label was not bought: ${why}`));
    }
    return this.label(t, rate, opts);
  }

  async reconcile(_shipment: string | null, rateId: string, opts: BuyOptions): Promise<Reconciled> {
    try {
      const list: Json = await asOperation('reconcile', () => this.client.transactions.list({ rate: rateId, results: 25 }));
      const sold = (list.results ?? []).find((t: Json) => t.status === 'SUCCESS');
      return sold ? { bought: true, label: this.label(sold, null, opts) } : { bought: false };
    } catch (err) {
      throw platformError('Shippo', err);
    }
  }

  /** GET /refunds: the refund of the label's transaction, if one was requested. */
  async refundStatus(label: { remote_transaction_id: string | null }): Promise<RefundState | null> {
    if (!label.remote_transaction_id) return null;
    try {
      const list: Json = await asOperation('reconcile', () => this.client.refunds.list({ results: 100 }));
      const mine = (list.results ?? []).find((r: Json) => r.transaction === label.remote_transaction_id);
      return mine ? shippoRefundState(mine.status) : null;
    } catch (err) {
      throw platformError('Shippo', err);
    }
  }

  async refund(label: { remote_transaction_id: string | null }): Promise<RefundState> {
    try {
      const r: Json = await asOperation('refund', () =>
        this.client.refunds.create({ transaction: label.remote_transaction_id ?? '', async: false }),
      );
      return shippoRefundState(r.status);
    } catch (err) {
      throw platformError('Shippo', err);
    }
  }
}

/** Shippo's refund status (QUEUED, PENDING, SUCCESS, ERROR) as fos's. */
export const shippoRefundState = (s: unknown): RefundState => (s === 'SUCCESS' ? 'REFUNDED' : s === 'ERROR' ? 'REJECTED' : 'SUBMITTED');
