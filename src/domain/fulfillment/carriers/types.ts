import type { Address } from '../lookups.js';

// Carrier adapters: how fos prices and buys labels. An adapter quotes every service that can
// ship a package (`rate`) and buys the chosen one (`buy`). Built in: 'table' (carriers/table.ts),
// priced from the operator's CarrierRate rows. A real carrier integration implements the same
// interface and is added to the registry in carriers/index.ts.

export interface RatePackage {
  id: string;
  weight: number | null;
  weight_unit: string | null;
  length: number | null;
  width: number | null;
  height: number | null;
  measurement_unit: string | null;
  from: Address;
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
}

export interface CarrierAdapter {
  /** carrier_integration_id of the rates it returns. */
  readonly id: string;
  readonly name: string;
  readonly type: string;
  rate(pkg: RatePackage, to: Address): Promise<RateQuote>;
  buy(rate: Rate, pkg: RatePackage, to: Address): Promise<PurchasedLabel>;
  /** Cancels a bought label that could not be attached (lost a race); optional. */
  void?(label: PurchasedLabel): Promise<void>;
}
