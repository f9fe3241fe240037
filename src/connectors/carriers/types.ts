import type { ShipmentStatus } from '../../domain/carrier-integrations/index.js';
import type { Address } from '../../domain/fulfillment/index.js';

// Carrier adapters: how fos prices and buys labels. An adapter quotes every service that can
// ship a package (`rate`) and buys the chosen one (`buy`). Each connector (connector.ts) opens one
// for an integration: the rate table (table/), priced from the operator's CarrierRate rows, and
// the platforms (easypost/, shippo/); the domain finds them through registry.ts.

export interface RatePackage {
  id: string;
  weight: number | null;
  weight_unit: string | null;
  length: number | null;
  width: number | null;
  height: number | null;
  measurement_unit: string | null;
  from: Address;
  /** The label format a purchase will want (platforms take it with the shipment). */
  label_format?: 'PDF' | 'ZPL';
  /** config.delivery_confirmation: NO_SIGNATURE | SIGNATURE | ADULT_SIGNATURE (null: the carrier's default). */
  delivery_confirmation?: string | null;
  /** config.insurance_policy { mode: 'amount', amount }: the insured value (null: none). */
  insured_amount?: number | null;
}

export interface Rate {
  currency: string;
  amount: number;
  service_name: string;
  carrier_name: string;
  service_id: string;
  carrier_id: string;
  carrier_integration_type: string;
  carrier_integration_id: string;
  estimated_days: number | null;
  delivery_date_guaranteed: boolean;
  delivery_date: Date | null;
  /** The adapter's id for this quote; buy() takes it back. */
  provider_rate_id: string;
  /** The platform's shipment the rate belongs to (EasyPost shp_…, Shippo shipment object_id). */
  remote_shipment_id?: string | null;
  list_rate?: number | null;
  retail_rate?: number | null;
}

export interface RateError {
  carrier_type: string;
  message: string;
}

export interface RateQuote {
  rates: Rate[];
  /** Why services could not ship the package (shown in rate_error_data.detailed_errors). */
  errors: RateError[];
}

export interface PurchasedLabel {
  tracking_code: string;
  tracking_url: string | null;
  label_url: string | null;
  /** The shipment's id at the carrier platform. */
  remote_id: string | null;
  price: number;
  currency: string;
  formatted_service: string;
  carrier_name: string;
  carrier_id: string;
  service_id: string;
  delivery_days: number | null;
  delivery_date: Date | null;
  delivery_date_guaranteed: boolean;
  zone: string | null;
  /** A platform label: where its bytes are (downloaded and stored by fos) and their format. */
  download_url?: string | null;
  download_format?: 'PDF' | 'ZPL';
  remote_transaction_id?: string | null;
  list_rate?: number | null;
  retail_rate?: number | null;
  /** International: the commercial invoice the platform made, stored as a package document. */
  commercial_invoice_url?: string | null;
}

/** How a platform label is bought: its format and fos's reference (the purchase claim's id). */
export interface BuyOptions {
  format: 'PDF' | 'ZPL';
  reference: string;
  customs?: CustomsInfo | null;
}

export interface CustomsItem {
  description: string;
  quantity: number;
  value: number;
  currency: string;
  weight_g: number;
  hs_code: string | null;
  origin_country: string | null;
  eccn: string | null;
}

export interface CustomsInfo {
  contents_type: string;
  contents_explanation: string | null;
  signer: string;
  certify: boolean;
  non_delivery_option: string;
  restriction_type: string;
  restriction_comments: string | null;
  eel_pfc: string | null;
  incoterm: string | null;
  items: CustomsItem[];
}

/** What a platform says about a purchase fos claimed but did not record (crash recovery). */
export type Reconciled = { bought: true; label: PurchasedLabel } | { bought: false };

export type RefundState = 'SUBMITTED' | 'REFUNDED' | 'REJECTED';

export interface CarrierAdapter {
  /** carrier_integration_id of the rates it returns. */
  readonly id: string;
  readonly name: string;
  readonly type: string;
  /** Platform adapters buy through a purchase claim (carriers/purchases.ts); the table does not. */
  readonly remote: boolean;
  rate(pkg: RatePackage, to: Address, customs?: CustomsInfo | null): Promise<RateQuote>;
  buy(rate: Rate, pkg: RatePackage, to: Address, opts?: BuyOptions): Promise<PurchasedLabel>;
  /** Whether the platform sold the claimed rate (after a crash or a lost answer). */
  reconcile?(remoteShipmentId: string | null, providerRateId: string, opts: BuyOptions): Promise<Reconciled>;
  /** Asks the platform to refund a bought label. */
  refund?(label: { remote_id: string | null; remote_transaction_id: string | null }): Promise<RefundState>;
  /** Reads a label's refund back (a refund whose answer was lost): null when none was requested. */
  refundStatus?(label: { remote_id: string | null; remote_transaction_id: string | null }): Promise<RefundState | null>;
  /** Cancels a bought label that could not be attached (lost a race); optional. */
  void?(label: PurchasedLabel): Promise<void>;
}

/** One tracker event of a platform, as the shipment_status it means (spec 2.7). */
export interface TrackEntry {
  status: ShipmentStatus;
  provider_status: string | null;
  message: string | null;
  occurred_at: Date;
  location: Record<string, unknown> | null;
}

/** What a verified carrier webhook says: tracking entries, a refund's outcome, or nothing fos takes. */
export type TrackerUpdate =
  | { kind: 'tracking'; tracking_code: string; entries: TrackEntry[] }
  | {
      kind: 'refund';
      tracking_code: string | null;
      remote_id: string | null;
      remote_transaction_id: string | null;
      refund_status: RefundState;
    }
  | { kind: 'ignored' };

/** A verified address (spec 2.6 address_verification_response), whatever the platform answered. */
export interface AddressCheck {
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
    dpv_match_code: string;
    latitude: number | null;
    longitude: number | null;
  };
}
