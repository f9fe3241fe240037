// Enumerations and defaults of the orders area (spec 2.2, 2.6; docs/orders.md).

export const PRIORITIES = ['LOW', 'NORMAL', 'HIGH', 'CRITICAL'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Sortable allocation order stored in Order.priority_rank: higher goes first. */
export const PRIORITY_RANK: Record<Priority, number> = { LOW: 1, NORMAL: 2, HIGH: 3, CRITICAL: 4 };

export const ORDER_STATUSES = ['OPEN', 'PENDING_FULFILLMENT', 'CLOSED', 'CANCELLED'] as const;
export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'REFUNDED'] as const;
/** A draft order's payment: PENDING (the order it becomes is held) or PAID. */
export const DRAFT_PAYMENT_STATUSES = ['PENDING', 'PAID'] as const;
export const FULFILLMENT_STATUSES = ['UNFULFILLED', 'PARTIALLY_FULFILLED', 'FULFILLED'] as const;
export const DRAFT_STATUSES = ['OPEN', 'CONVERTED'] as const;
// Spec 2.6 lists AWAITING_PAYMENT; the rest are fos's (docs/orders.md): set by people (MANUAL, FRAUD_REVIEW,
// CUSTOMER_REQUEST), address checks (ADDRESS_INVALID: format; ADDRESS_VERIFICATION_FAILED: a carrier's
// verification) and sales-channel intake (UNMAPPED_ITEM: a line matching no product; SHOP_EDIT: the shop
// changed the order after packing started, the notes carry the old -> new difference).
export const HOLD_REASONS = [
  'AWAITING_PAYMENT',
  'ADDRESS_INVALID',
  'ADDRESS_VERIFICATION_FAILED',
  'MANUAL',
  'UNMAPPED_ITEM',
  'FRAUD_REVIEW',
  'CUSTOMER_REQUEST',
  'SHOP_EDIT',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];
/** Why an order or fulfillment order was cancelled (Shopify's cancel reasons; CHANNEL: the sales channel cancelled it). */
export const CANCEL_REASONS = ['CUSTOMER', 'FRAUD', 'INVENTORY', 'DECLINED', 'STAFF', 'CHANNEL', 'OTHER'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
export const SHOP_TYPES = ['SHOPIFY', 'AMAZON', 'BIGCOMMERCE', 'MANUAL', 'WOOCOMMERCE', 'EBAY', 'ETSY'] as const;
export type ShopType = (typeof SHOP_TYPES)[number];

/** Orders still taking part in allocation (not closed or cancelled). */
export const ALLOCATABLE_STATUSES = ['OPEN', 'PENDING_FULFILLMENT'];

/** First generated order number of a fulfiller team ("#1001"). */
export const FIRST_ORDER_SEQ = 1001;

/** metadata keys: custom, SHOPIFY (<platform_a>), WooCommerce-style meta_data (<platform_e>), BIGCOMMERCE (<platform_c>). */
export const METADATA_KEYS = ['custom', 'shopify', 'meta_data', 'bigcommerce'] as const;
export type OrderMetadata = Record<(typeof METADATA_KEYS)[number], { key: string; value: string }[]>;

export const CARRIER_SELECTION_FIELDS = [
  'carton_id',
  'carton_name',
  'carrier_integration_id',
  'carrier_integration_type',
  'carrier_integration_name',
  'carrier_id',
  'service_id',
  'rate_shop_name',
  'formatted_service',
  'package_preset_id',
  'package_preset_name',
] as const;

/** Order config (2.6): packing options plus the package customs/shipping options of 2.7. */
export const ORDER_CONFIG_DEFAULTS = {
  require_pack_shot: false,
  show_unfulfilled_items_on_packing_list: true,
  show_prices_on_packing_slip: false,
  tote_qa_enabled: false,
  address_verification_enabled: true,
  incoterm: null as string | null,
  incoterm_location: null as string | null,
  eel_pfc: null as string | null,
  delivery_confirmation: null as string | null,
  saturday_delivery: false,
  insurance_policy: { mode: 'none' } as { mode: string },
  customs_signer: null as string | null,
  customs_signer_title: null as string | null,
  customs_certify: false,
  non_delivery_option: null as string | null,
  restriction_type: null as string | null,
  restriction_comments: null as string | null,
  contents_type: null as string | null,
  contents_explanation: null as string | null,
  commercial_invoice_transaction_reason: null as string | null,
  declaration: null as string | null,
  commercial_invoice_payment_terms: null as string | null,
  commercial_invoice_transport_mode: null as string | null,
  commercial_invoice_port_of_entry: null as string | null,
  commercial_invoice_country_of_transshipment: null as string | null,
  commercial_invoice_package_marks: null as string | null,
  commercial_invoice_freight_amount: null as number | null,
  commercial_invoice_discount_amount: null as number | null,
  commercial_invoice_other_charge_amount: null as number | null,
  commercial_invoice_other_charge_description: null as string | null,
  commercial_invoice_importer_tax_id: null as string | null,
  commercial_invoice_importer_vat: null as string | null,
  commercial_invoice_importer_eori: null as string | null,
  commercial_invoice_importer_ioss: null as string | null,
  commercial_invoice_vat_statement: null as string | null,
  commercial_invoice_export_license_number: null as string | null,
  destination_control_statement_required: false,
};
export type OrderConfig = typeof ORDER_CONFIG_DEFAULTS;

/** "#1001" for display whether or not the stored number carries the '#'. */
export const orderLabel = (orderNumber: string) => (orderNumber.startsWith('#') ? orderNumber : `#${orderNumber}`);
