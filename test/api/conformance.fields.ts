// The spec's field lists (public-api.md section 2), transcribed as written. The spec's shorthands
// are expanded: "_company, _address1 …" carry the group's prefix, "team id/name fields" are the
// six team fields, "carton_id/name" is carton_id + carton_name. Used by conformance.test.ts.

export const PLATFORMS = ['SHOPIFY', 'AMAZON', 'BIGCOMMERCE', 'MANUAL', 'WOOCOMMERCE', 'EBAY', 'ETSY'];
export const TEAM6 = ['team_id', 'team_name', 'fulfiller_team_id', 'fulfiller_team_name', 'merchant_team_id', 'merchant_team_name'];
const pre = (prefix: string, names: string[]) => names.map((n) => prefix + n);
// next_cursor: keyset paging (issue 9), an extension beside the spec's members.
export const PAGE_META = ['page', 'page_size', 'start_index', 'end_index', 'has_next_page', 'has_previous_page', 'next_cursor'];

// ---------- 2.3 ----------
export const PRODUCT_CONFIG = ['replenishment_source_strategy', 'replenishment_increment_level', 'replenishment_maximum_level', 'replenishment_minimum_level'];
export const PRODUCT_BASE = [
  'id', 'name', 'sku', 'description', 'barcode', 'mpn', 'manufacturer', 'image_url', 'type', ...TEAM6,
  'length', 'width', 'height', 'weight', 'measurement_unit', 'weight_unit', 'cost_price', 'cost_currency',
  'customs_value', 'customs_value_currency', 'customs_description', 'country_of_origin', 'hs_code',
  'printed_commodity_identifier', 'eccn', 'is_hazmat', 'category', 'subcategory', 'pick_fee_override',
  'first_article_inspection_completed_at', 'config', 'increment_level', 'maximum_level', 'minimum_level',
  'available', 'on_hand', 'committed', 'unavailable', 'on_order', 'inventory_by_warehouse',
  'virtual_bundle_component_count', 'product_listing_variant_count', 'created_at', 'updated_at',
];
export const PRODUCT_CHILDREN = ['virtual_bundle_products', 'assembly_products', 'product_listing_variants'];
export const PRODUCT_LIST = [...PRODUCT_BASE, 'supported_actions'];
export const PRODUCT_ONE = [...PRODUCT_BASE, ...PRODUCT_CHILDREN, 'supported_actions'];
export const PRODUCT_WRITE = [...PRODUCT_BASE, ...PRODUCT_CHILDREN];
export const INVENTORY_BY_WAREHOUSE = ['warehouse_id', 'warehouse_name', 'on_order', 'unavailable', 'committed', 'on_hand', 'available'];
const COMPONENT = ['id', 'component_product_id', 'component_product_sku', 'component_product_name', 'component_product_image_url', 'component_quantity', 'created_at', 'updated_at'];
export const BUNDLE_COMPONENT = [...COMPONENT, 'virtual_bundle_product_id'];
export const ASSEMBLY_COMPONENT = [...COMPONENT, 'assembly_product_id'];
export const LISTING_VARIANT = [
  'id', 'product_id', 'product_type', 'product_listing_id', 'product_listing_name', 'shop_id', 'shop_name', 'shop_slug',
  'shop_type', 'remote_id', 'remote_shopify_inventory_item_id', 'sku', 'barcode', 'name', 'image_url', 'price', 'currency',
  'hs_code', 'country_of_origin', 'weight', 'weight_unit', 'synced_at', 'created_at', 'updated_at', ...TEAM6,
];

// ---------- 2.4, 2.5 ----------
export const MERCHANT_PRODUCT = [
  'id', 'name', 'sku', 'description', 'type', 'image_url', 'length', 'width', 'height', 'weight', 'measurement_unit',
  'weight_unit', 'cost_price', 'cost_currency', 'customs_description', 'customs_value', 'customs_value_currency',
  'country_of_origin', 'hs_code', 'first_article_inspection_completed_at', 'team_id', 'config',
];
export const VENDOR = [
  'id', 'created_at', 'updated_at', 'vendor_name', 'company_name', 'address', 'address_2', 'city', 'state', 'zip_code',
  'country', 'contact_person_name', 'contact_email', 'contact_phone', 'internal_notes', 'merchant_team_id',
  'merchant_team_name', 'fulfiller_team_id', 'fulfiller_team_name', 'products',
];
export const VENDOR_PRODUCT = ['id', 'name', 'sku', 'image_url'];

// ---------- 2.7 config (also part of 2.6 config) ----------
const CI = 'commercial_invoice';
export const PACKAGE_CUSTOMS_CONFIG = [
  'incoterm', 'incoterm_location', 'eel_pfc', 'delivery_confirmation', 'saturday_delivery', 'insurance_policy',
  'customs_signer', 'customs_signer_title', 'customs_certify', 'non_delivery_option', 'restriction_type',
  'restriction_comments', 'contents_type', 'contents_explanation', `${CI}_transaction_reason`, 'declaration',
  `${CI}_payment_terms`, ...pre(`${CI}_`, [
    'transport_mode', 'port_of_entry', 'country_of_transshipment', 'package_marks', 'freight_amount', 'discount_amount',
    'other_charge_amount', 'other_charge_description', 'importer_tax_id', 'importer_vat', 'importer_eori', 'importer_ioss',
    'vat_statement', 'export_license_number',
  ]), 'destination_control_statement_required',
];
const PACKING = ['require_pack_shot', 'show_unfulfilled_items_on_packing_list', 'show_prices_on_packing_slip'];
export const PACKAGE_CONFIG = [...PACKING, ...PACKAGE_CUSTOMS_CONFIG];

// ---------- 2.6 ----------
const ADDR9 = ['name', 'company', 'address1', 'address2', 'city', 'state', 'country', 'zip', 'phone'];
export const ORDER_CONFIG = [...PACKING, 'tote_qa_enabled', 'address_verification_enabled', ...PACKAGE_CUSTOMS_CONFIG];
export const ORDER_METADATA = ['custom', 'shopify', 'meta_data', 'bigcommerce'];
export const ORDER_HOLD = ['id', 'order_id', 'active', 'reason', 'reason_notes', 'created_by_user_id', 'created_at', 'updated_at'];
export const CORE_ITEM = [
  'id', 'order_id', 'product_id', 'core_draft_order_line_item_id', 'sku', 'name', 'image_url', 'unsynced_quantity',
  'remaining_quantity', 'total_quantity', 'removed_quantity', 'synced_at', 'created_at', 'updated_at',
];
export const ORIGINAL_ITEM = [
  ...CORE_ITEM, 'original_draft_order_line_item_id', 'shop_id', 'product_listing_id', 'product_listing_variant_id',
  'remote_id', 'applied_discount_amount', 'price',
];
export const ORDER_BASE = [
  'id', 'order_number', 'remote_id', 'synced_at', 'created_at', 'updated_at', 'closed_at', 'cancelled_at',
  'merchant_team_id', 'merchant_team_name', 'team_id', 'team_name', 'fulfiller_team_id', 'fulfiller_team_name',
  'shop_id', 'shop_name', 'shop_slug', 'shop_type',
  'status', 'fulfillment_status', 'payment_status', 'priority',
  'currency', 'note', 'shipping_method', 'deliver_by', 'line_item_hash', 'tags', 'total_price', 'total_tax',
  'total_discount', 'total_shipping', 'current_shipping', 'total_outstanding',
  'metadata',
  ...pre('shipping_address_', ADDR9), 'shipping_latitude', 'shipping_longitude',
  ...pre('billing_address_', ADDR9),
  'customer_email', 'customer_name', 'customer_phone',
  'carton_id', 'carton_name', 'carrier_integration_id', 'carrier_integration_type', 'carrier_integration_name',
  'carrier_id', 'service_id', 'rate_shop_name', 'formatted_service', 'package_preset_id', 'package_preset_name',
  'lock_address', 'address_verified', 'address_residential', 'address_verified_at', 'address_hash',
  'address_verification_response',
  'is_fragile', 'core_line_item_count', 'unique_core_line_item_count', 'tracking_count', 'fulfillment_count',
  'line_item_image_urls',
  'config', 'order_fulfillment_holds',
];
export const ORDER_ONE = [...ORDER_BASE, 'core_order_line_items', 'original_order_line_items', 'supported_actions'];
export const ORDER_PRIORITY = ORDER_BASE; // the three get-one-only members are absent
export const ADDRESS_VERIFICATION = ['verified', 'residential', 'errors', 'corrected_address', 'metadata'];
export const CORRECTED_ADDRESS = ['street1', 'street2', 'city', 'state', 'zip5', 'zip4'];
export const VERIFICATION_METADATA = ['is_active', 'is_cmra', 'is_vacant', 'record_type', 'dpv_footnotes', 'dpv_match_code', 'latitude', 'longitude'];
export const ORDER_LIST_ITEM = [
  'id', 'created_at', 'closed_at', 'cancelled_at', 'merchant_team_name', 'shop_name', 'shop_type', 'fulfillment_status',
  'payment_status', 'priority', 'order_number', 'currency', 'note', 'shipping_method', 'tags', 'total_price',
  'customer_email', 'customer_name', 'customer_phone',
  ...pre('shipping_address_', ['company', 'address1', 'address2', 'city', 'state', 'country', 'zip']),
  'address_verified', 'address_residential', 'core_line_item_count', 'unique_core_line_item_count', 'fulfillment_count',
  'line_item_image_urls', 'status',
];

// ---------- 2.7 ----------
const PKG_ADDR = ['name', 'company', 'address1', 'address2', 'city', 'state', 'country', 'zip', 'phone', 'email'];
export const PACKAGE = [
  'id', 'idempotency_key', 'name', 'created_at', 'updated_at', 'manifested_at', 'shipped_at', 'status', 'type', 'packing_slip_url',
  'length', 'width', 'height', 'measurement_unit', 'weight', 'weight_unit', 'total_customs_value', 'total_item_quantity',
  'unique_line_item_count', 'line_item_hash',
  'picking_session_id', 'fulfillment_order_id', 'work_order_id', 'return_id', 'carton_id', 'carton_name', 'shipping_label_id',
  'scan_form_id', 'bulk_ship_id', 'bulk_ship_template_package_id', 'package_preset_id', 'package_preset_name', 'rate_shop_id',
  'rate_shop_name', 'warehouse_id', 'warehouse_name', 'merchant_team_id', 'merchant_team_name', 'fulfiller_team_id', 'fulfiller_team_name',
  'carrier_id', 'service_id', 'provider_rate_id', 'carrier_integration_id', 'carrier_integration_name', 'carrier_integration_type',
  'formatted_service', 'deliver_by', 'shipment_status', 'error_message',
  'shipping_label_tracking_code', 'shipping_label_tracking_url', 'shipping_label_formatted_service', 'shipping_label_url',
  ...pre('from_address_', PKG_ADDR), ...pre('to_address_', PKG_ADDR),
  'config', 'rate_error_data', 'package_line_items', 'fulfillment', 'shipping_label',
];
export const RATE_ERROR_DATA = ['message', 'detailed_errors', 'available_rates'];
export const AVAILABLE_RATE = [
  'currency', 'amount', 'service_name', 'carrier_name', 'service_id', 'carrier_id', 'carrier_integration_type',
  'carrier_integration_id', 'estimated_days', 'delivery_date_guaranteed', 'delivery_date', 'provider_rate_id',
];
export const PACKAGE_LINE_ITEM = [
  'id', 'package_id', 'product_id', 'sku', 'name', 'image_url', 'quantity', 'weight', 'weight_unit', 'lot_code',
  'expiration_date', 'uom_label', 'uom_multiplier_to_eaches', 'uom_profile_id', 'work_order_line_item_id',
  'core_fulfillment_order_line_item_id', 'customs_value', 'customs_value_currency', 'customs_description', 'hs_code',
  'country_of_origin', 'printed_commodity_identifier', 'eccn', 'manufacturer', 'created_at', 'updated_at',
];
export const FULFILLMENT = [
  'id', 'name', 'type', 'status', 'shipment_status', 'package_type', 'package_id', 'fulfillment_order_id', 'order_id',
  'picking_session_id', 'bulk_ship_id', 'carton_id', 'carton_name', 'warehouse_id', 'warehouse_name', 'shop_id', 'shop_name',
  'shipping_label_id', 'formatted_service', 'tracking_code', 'shipping_label_label_url', 'shipping_label_tracking_url',
  'packed_by_user_id', 'packed_by_user_name', 'picked_by_user_id', 'picked_by_user_name', 'has_packshots',
  'line_item_image_urls', 'unique_core_item_count', 'total_core_item_quantity', 'remote_id', 'synced_at', ...TEAM6,
  'created_at', 'updated_at',
];
const LABEL_ADDR = ['name', 'company', 'phone', 'country', 'zip', 'state', 'city', 'street1', 'street2'];
export const SHIPPING_LABEL = [
  'id', 'tracking_code', 'tracking_url', 'label_url', 'original_label_url', 'label_with_packing_slip_url', 'shipment_status',
  'refund_status', 'scan_status', 'zone', 'price', 'currency', 'list_rate', 'list_currency', 'retail_price', 'retail_currency',
  'delivery_date', 'delivery_date_guaranteed', 'delivery_days', 'formatted_service', 'carrier_id', 'service_id',
  'carrier_account_id', 'carrier_integration_id', 'carrier_integration_name', 'carrier_integration_type', 'gaylord_id',
  'shipping_label_number', 'voided_at', 'remote_id',
  // "two remote carrier-platform ids": the spec does not name them; these are our names.
  'carrier_platform_shipment_id', 'carrier_platform_rate_id',
  ...pre('from_address_', LABEL_ADDR), ...pre('to_address_', LABEL_ADDR), ...TEAM6, 'created_at', 'updated_at',
  'carrier_correction',
];
export const CARRIER_CORRECTION = [
  'version', 'source_import', 'carrier_invoice_number', 'carrier_invoice_date', 'transaction_date', 'confirmed_at',
  'tracking_number', 'correction_type', 'correction_reason', 'carrier_service_code', 'published_amount', 'incentive_amount',
  'original_carrier_cost', 'carrier_adjustment_amount', 'corrected_carrier_cost', 'currency',
];

// ---------- 2.8 ----------
export const CHARGE = [
  'id', 'name', 'description', 'category', 'currency', 'quantity', 'calculated_amount', 'original_amount', 'created_at',
  'updated_at', 'merchant_team_id', 'fulfiller_team_id', 'fulfillment_delegation_id', 'invoice_id', 'order_id',
  'fulfillment_id', 'fulfillment_order_id', 'work_order_id', 'return_id', 'shipping_label_id', 'purchase_order_id',
  'carrier_id', 'carrier_integration_id', 'carrier_integration_name', 'carrier_integration_type', 'service_id', 'carton_id',
  'carton_name', 'warehouse_id', 'warehouse_name', 'location_type_id', 'location_type_name', 'pricing_config', 'pricing_trace',
];
export const PRICING_CONFIG = ['category', 'original_amount', 'origination', 'shipping_label', 'order'];
const GEO = ['country', 'zip', 'state', 'city'];
export const PRICING_LABEL = [
  ...pre('from_address_', GEO), ...pre('to_address_', GEO), 'zone', 'price', 'formatted_service',
  'carrier_integration_name', 'carrier_integration_type', 'tracking_code',
];
export const PRICING_ORDER = ['address_residential', 'priority', 'is_fragile', 'tags', 'unique_core_line_item_count', 'shop_type', 'order_number'];
export const TRACE_LABEL = [...PRICING_LABEL, 'service_id', 'carrier_integration_id', 'carrier_id', 'id'];
export const TRACE_ORDER = [...PRICING_ORDER, 'id'];
export const PRICING_TRACE = [
  'rate_card_id', 'rate_card_name', 'version_id', 'semantic_version', 'category', 'decision', 'trigger_step_id',
  'pricing_step_id', 'calculated_amount', 'calculation_note', 'pricing_config', 'events',
];
export const TRACE_EVENT = ['event_type', 'step_id', 'category', 'matched'];

// ---------- 2.9 - 2.11 ----------
export const FILE = [
  'id', 'name', 'description', 'url', 'thumbnail_url', 'preview_blur_hash', 'mimetype', 'size', 'file_category',
  'processing_status', 'tags', 'team_id', 'created_at', 'updated_at',
  'processing_error', // extension: why processing_status is FAILED (docs/files.md)
];
export const PICKING_ENTRY = [
  'fulfillment_order_id', 'picking_session_id', 'order_number', 'status', 'tote_id', 'tote_name', 'packing_started_at',
  'packing_completed_at', 'packed_by_user_id', 'packed_by_user_name', 'created_at', 'updated_at',
];
export const FULFILLMENT_ORDER_MIN = ['id', 'order_id', 'status', 'request_status'];
export const LOCK_RESPONSE = ['success', 'lock_owner', 'expires_at'];
