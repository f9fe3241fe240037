-- CreateEnum
CREATE TYPE "TeamKind" AS ENUM ('FULFILLER', 'MERCHANT');

-- CreateEnum
CREATE TYPE "MeasurementSystem" AS ENUM ('METRIC', 'IMPERIAL');

-- CreateEnum
CREATE TYPE "PowerRole" AS ENUM ('ADMIN', 'MEMBER');

-- CreateEnum
CREATE TYPE "KeyState" AS ENUM ('ACTIVE', 'DISABLED');

-- CreateEnum
CREATE TYPE "ShopType" AS ENUM ('SHOPIFY', 'AMAZON', 'BIGCOMMERCE', 'MANUAL', 'WOOCOMMERCE', 'EBAY', 'ETSY');

-- CreateEnum
CREATE TYPE "ProductType" AS ENUM ('STANDARD', 'VIRTUAL_BUNDLE', 'ASSEMBLY');

-- CreateEnum
CREATE TYPE "ComponentKind" AS ENUM ('VIRTUAL_BUNDLE', 'ASSEMBLY');

-- CreateEnum
CREATE TYPE "DraftOrderStatus" AS ENUM ('OPEN', 'CONVERTED');

-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('OPEN', 'PENDING_FULFILLMENT', 'CLOSED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "Priority" AS ENUM ('LOW', 'NORMAL', 'HIGH', 'CRITICAL');

-- CreateEnum
CREATE TYPE "LineItemKind" AS ENUM ('CORE', 'ORIGINAL');

-- CreateTable
CREATE TABLE "teams" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "TeamKind" NOT NULL,
    "measurement_system" "MeasurementSystem" NOT NULL DEFAULT 'METRIC',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fulfillment_delegations" (
    "id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "rate_card" JSONB,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "fulfillment_delegations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "power_role" "PowerRole" NOT NULL DEFAULT 'MEMBER',
    "token_hash" TEXT NOT NULL,
    "token_hint" TEXT NOT NULL,
    "state" "KeyState" NOT NULL DEFAULT 'ACTIVE',
    "rate_tier" INTEGER NOT NULL DEFAULT 1,
    "expires_at" TIMESTAMP(3),
    "created_by" TEXT,
    "disabled_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "roles" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "permissions" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "roles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key_roles" (
    "api_key_id" TEXT NOT NULL,
    "role_id" TEXT NOT NULL,

    CONSTRAINT "api_key_roles_pkey" PRIMARY KEY ("api_key_id","role_id")
);

-- CreateTable
CREATE TABLE "rate_limit_counters" (
    "bucket" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "window_reset" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("bucket")
);

-- CreateTable
CREATE TABLE "system_state" (
    "id" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "system_state_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "warehouses" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "address1" TEXT,
    "city" TEXT,
    "state" TEXT,
    "zip" TEXT,
    "country" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "warehouses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "location_types" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "location_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shops" (
    "id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "shop_type" "ShopType" NOT NULL DEFAULT 'MANUAL',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shops_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "products" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "merchant_team_id" TEXT,
    "fulfiller_team_id" TEXT,
    "name" TEXT NOT NULL,
    "sku" TEXT,
    "description" TEXT,
    "barcode" TEXT,
    "mpn" TEXT,
    "manufacturer" TEXT,
    "image_url" TEXT,
    "type" "ProductType" NOT NULL DEFAULT 'STANDARD',
    "length" DOUBLE PRECISION,
    "width" DOUBLE PRECISION,
    "height" DOUBLE PRECISION,
    "weight" DOUBLE PRECISION,
    "measurement_unit" TEXT NOT NULL,
    "weight_unit" TEXT NOT NULL,
    "cost_price" DOUBLE PRECISION,
    "cost_currency" TEXT,
    "customs_value" DOUBLE PRECISION,
    "customs_value_currency" TEXT,
    "customs_description" TEXT,
    "country_of_origin" TEXT,
    "hs_code" TEXT,
    "printed_commodity_identifier" TEXT,
    "eccn" TEXT,
    "is_hazmat" BOOLEAN NOT NULL DEFAULT false,
    "category" TEXT,
    "subcategory" TEXT,
    "pick_fee_override" DOUBLE PRECISION,
    "first_article_inspection_completed_at" TIMESTAMP(3),
    "config" JSONB,
    "increment_level" DOUBLE PRECISION,
    "maximum_level" DOUBLE PRECISION,
    "minimum_level" DOUBLE PRECISION,
    "search_text" TEXT NOT NULL DEFAULT '',
    "name_sku_search_text" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_components" (
    "id" TEXT NOT NULL,
    "kind" "ComponentKind" NOT NULL,
    "parent_product_id" TEXT NOT NULL,
    "component_product_id" TEXT NOT NULL,
    "component_quantity" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_components_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_listing_variants" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "product_listing_id" TEXT,
    "product_listing_name" TEXT,
    "shop_id" TEXT,
    "remote_id" TEXT,
    "remote_inventory_item_id" TEXT,
    "sku" TEXT,
    "barcode" TEXT,
    "name" TEXT,
    "image_url" TEXT,
    "price" DOUBLE PRECISION,
    "currency" TEXT,
    "hs_code" TEXT,
    "country_of_origin" TEXT,
    "weight" DOUBLE PRECISION,
    "weight_unit" TEXT,
    "synced_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "product_listing_variants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inventory_levels" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "on_hand" INTEGER NOT NULL DEFAULT 0,
    "committed" INTEGER NOT NULL DEFAULT 0,
    "unavailable" INTEGER NOT NULL DEFAULT 0,
    "on_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "inventory_levels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendors" (
    "id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT,
    "vendor_name" TEXT NOT NULL,
    "company_name" TEXT,
    "address" TEXT,
    "address_2" TEXT,
    "city" TEXT,
    "state" TEXT,
    "zip_code" TEXT,
    "country" TEXT,
    "contact_person_name" TEXT,
    "contact_email" TEXT,
    "contact_phone" TEXT,
    "internal_notes" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "vendors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendor_products" (
    "vendor_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,

    CONSTRAINT "vendor_products_pkey" PRIMARY KEY ("vendor_id","product_id")
);

-- CreateTable
CREATE TABLE "draft_orders" (
    "id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "shop_id" TEXT,
    "status" "DraftOrderStatus" NOT NULL DEFAULT 'OPEN',
    "order_id" TEXT,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "draft_orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "draft_order_line_items" (
    "id" TEXT NOT NULL,
    "draft_order_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "sku" TEXT,
    "name" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "price" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "applied_discount_amount" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "draft_order_line_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" TEXT NOT NULL,
    "order_number" TEXT NOT NULL,
    "remote_id" TEXT,
    "synced_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "cancelled_at" TIMESTAMP(3),
    "merchant_team_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "shop_id" TEXT,
    "status" "OrderStatus" NOT NULL DEFAULT 'OPEN',
    "fulfillment_status" TEXT NOT NULL DEFAULT 'UNFULFILLED',
    "payment_status" TEXT NOT NULL DEFAULT 'PENDING',
    "priority" "Priority" NOT NULL DEFAULT 'NORMAL',
    "priority_rank" INTEGER NOT NULL DEFAULT 2,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "note" TEXT,
    "shipping_method" TEXT,
    "deliver_by" TIMESTAMP(3),
    "line_item_hash" TEXT,
    "tags" JSONB NOT NULL,
    "total_price" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "total_tax" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "total_discount" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "total_shipping" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "current_shipping" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "total_outstanding" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "metadata" JSONB,
    "shipping_address" JSONB,
    "shipping_latitude" DOUBLE PRECISION,
    "shipping_longitude" DOUBLE PRECISION,
    "billing_address" JSONB,
    "customer_email" TEXT,
    "customer_name" TEXT,
    "customer_phone" TEXT,
    "carrier_selection" JSONB,
    "lock_address" BOOLEAN NOT NULL DEFAULT false,
    "address_verified" BOOLEAN NOT NULL DEFAULT false,
    "address_residential" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "address_verified_at" TIMESTAMP(3),
    "address_hash" TEXT,
    "address_verification_response" JSONB,
    "is_fragile" BOOLEAN NOT NULL DEFAULT false,
    "core_line_item_count" INTEGER NOT NULL DEFAULT 0,
    "unique_core_line_item_count" INTEGER NOT NULL DEFAULT 0,
    "tracking_count" INTEGER NOT NULL DEFAULT 0,
    "fulfillment_count" INTEGER NOT NULL DEFAULT 0,
    "line_item_image_urls" JSONB NOT NULL,
    "config" JSONB,
    "search_text" TEXT NOT NULL DEFAULT '',
    "order_number_key" TEXT NOT NULL DEFAULT '',
    "order_seq" INTEGER,
    "unallocated_quantity" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_line_items" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "kind" "LineItemKind" NOT NULL,
    "product_id" TEXT,
    "core_draft_order_line_item_id" TEXT,
    "original_draft_order_line_item_id" TEXT,
    "shop_id" TEXT,
    "product_listing_id" TEXT,
    "product_listing_variant_id" TEXT,
    "remote_id" TEXT,
    "sku" TEXT,
    "name" TEXT NOT NULL,
    "image_url" TEXT,
    "unsynced_quantity" INTEGER NOT NULL DEFAULT 0,
    "remaining_quantity" INTEGER NOT NULL,
    "total_quantity" INTEGER NOT NULL,
    "removed_quantity" INTEGER NOT NULL DEFAULT 0,
    "unallocated_quantity" INTEGER NOT NULL DEFAULT 0,
    "applied_discount_amount" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "price" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "synced_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "order_line_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_fulfillment_holds" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "reason" TEXT NOT NULL,
    "reason_notes" TEXT,
    "created_by_user_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "order_fulfillment_holds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fulfillment_orders" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "request_status" TEXT NOT NULL DEFAULT 'UNSUBMITTED',
    "lock_owner" TEXT,
    "lock_expires_at" TIMESTAMP(3),
    "picking_session_id" TEXT,
    "tote_id" TEXT,
    "packing_started_at" TIMESTAMP(3),
    "packing_completed_at" TIMESTAMP(3),
    "packed_by_user_id" TEXT,
    "packed_by_user_name" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "fulfillment_orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fulfillment_order_line_items" (
    "id" TEXT NOT NULL,
    "fulfillment_order_id" TEXT NOT NULL,
    "order_line_item_id" TEXT NOT NULL,
    "product_id" TEXT,
    "sku" TEXT,
    "name" TEXT NOT NULL,
    "image_url" TEXT,
    "quantity" INTEGER NOT NULL,
    "remaining_quantity" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "fulfillment_order_line_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "picking_sessions" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "picking_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "totes" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "totes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "packages" (
    "id" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "request_hash" TEXT,
    "name" TEXT,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "type" TEXT NOT NULL DEFAULT 'FULFILLMENT_ORDER',
    "fulfiller_team_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "fulfillment_order_id" TEXT,
    "picking_session_id" TEXT,
    "work_order_id" TEXT,
    "return_id" TEXT,
    "warehouse_id" TEXT,
    "carton_id" TEXT,
    "carton_name" TEXT,
    "package_preset_id" TEXT,
    "package_preset_name" TEXT,
    "rate_shop_id" TEXT,
    "rate_shop_name" TEXT,
    "scan_form_id" TEXT,
    "bulk_ship_id" TEXT,
    "bulk_ship_template_package_id" TEXT,
    "packing_slip_url" TEXT,
    "length" DOUBLE PRECISION,
    "width" DOUBLE PRECISION,
    "height" DOUBLE PRECISION,
    "measurement_unit" TEXT,
    "weight" DOUBLE PRECISION,
    "weight_unit" TEXT,
    "total_customs_value" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "total_item_quantity" INTEGER NOT NULL DEFAULT 0,
    "unique_line_item_count" INTEGER NOT NULL DEFAULT 0,
    "line_item_hash" TEXT,
    "rate_strategy" TEXT,
    "carrier_id" TEXT,
    "service_id" TEXT,
    "provider_rate_id" TEXT,
    "carrier_integration_id" TEXT,
    "carrier_integration_name" TEXT,
    "carrier_integration_type" TEXT,
    "formatted_service" TEXT,
    "deliver_by" TIMESTAMP(3),
    "shipment_status" TEXT,
    "error_message" TEXT,
    "from_address" JSONB,
    "to_address" JSONB,
    "config" JSONB,
    "rate_error_data" JSONB,
    "manifested_at" TIMESTAMP(3),
    "shipped_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "packages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "package_line_items" (
    "id" TEXT NOT NULL,
    "package_id" TEXT NOT NULL,
    "product_id" TEXT,
    "core_fulfillment_order_line_item_id" TEXT,
    "work_order_line_item_id" TEXT,
    "sku" TEXT,
    "name" TEXT,
    "image_url" TEXT,
    "quantity" INTEGER NOT NULL,
    "weight" DOUBLE PRECISION,
    "weight_unit" TEXT,
    "lot_code" TEXT,
    "expiration_date" TIMESTAMP(3),
    "uom_label" TEXT,
    "uom_multiplier_to_eaches" DOUBLE PRECISION,
    "uom_profile_id" TEXT,
    "customs_value" DOUBLE PRECISION,
    "customs_value_currency" TEXT,
    "customs_description" TEXT,
    "hs_code" TEXT,
    "country_of_origin" TEXT,
    "printed_commodity_identifier" TEXT,
    "eccn" TEXT,
    "manufacturer" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "package_line_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "shipping_labels" (
    "id" TEXT NOT NULL,
    "package_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "tracking_code" TEXT,
    "tracking_url" TEXT,
    "label_url" TEXT,
    "original_label_url" TEXT,
    "label_with_packing_slip_url" TEXT,
    "shipment_status" TEXT NOT NULL DEFAULT 'LABEL_PRINTED',
    "refund_status" TEXT,
    "scan_status" TEXT,
    "zone" TEXT,
    "price" DOUBLE PRECISION,
    "currency" TEXT,
    "list_rate" DOUBLE PRECISION,
    "list_currency" TEXT,
    "retail_price" DOUBLE PRECISION,
    "retail_currency" TEXT,
    "delivery_date" TIMESTAMP(3),
    "delivery_date_guaranteed" BOOLEAN NOT NULL DEFAULT false,
    "delivery_days" INTEGER,
    "formatted_service" TEXT,
    "carrier_name" TEXT,
    "carrier_id" TEXT,
    "service_id" TEXT,
    "carrier_account_id" TEXT,
    "carrier_integration_id" TEXT,
    "carrier_integration_name" TEXT,
    "carrier_integration_type" TEXT,
    "gaylord_id" TEXT,
    "shipping_label_number" TEXT,
    "voided_at" TIMESTAMP(3),
    "remote_id" TEXT,
    "from_address" JSONB,
    "to_address" JSONB,
    "carrier_correction" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shipping_labels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fulfillments" (
    "id" TEXT NOT NULL,
    "package_id" TEXT NOT NULL,
    "fulfillment_order_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'PICK_PACK',
    "status" TEXT NOT NULL DEFAULT 'FULFILLED',
    "packed_by_user_id" TEXT,
    "packed_by_user_name" TEXT,
    "picked_by_user_id" TEXT,
    "picked_by_user_name" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "fulfillments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "carrier_rates" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "carrier_id" TEXT NOT NULL,
    "carrier_name" TEXT NOT NULL,
    "service_id" TEXT NOT NULL,
    "service_name" TEXT NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "per_unit_weight" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "max_weight" DOUBLE PRECISION,
    "weight_unit" TEXT NOT NULL DEFAULT 'G',
    "countries" JSONB,
    "estimated_days" INTEGER,
    "delivery_date_guaranteed" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "carrier_rates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "charges" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "category" TEXT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "quantity" DOUBLE PRECISION NOT NULL,
    "calculated_amount" DOUBLE PRECISION NOT NULL,
    "original_amount" DOUBLE PRECISION NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "fulfillment_delegation_id" TEXT,
    "invoice_id" TEXT,
    "order_id" TEXT,
    "fulfillment_id" TEXT,
    "fulfillment_order_id" TEXT,
    "work_order_id" TEXT,
    "return_id" TEXT,
    "shipping_label_id" TEXT,
    "purchase_order_id" TEXT,
    "carrier_id" TEXT,
    "carrier_integration_id" TEXT,
    "carrier_integration_name" TEXT,
    "carrier_integration_type" TEXT,
    "service_id" TEXT,
    "carton_id" TEXT,
    "carton_name" TEXT,
    "warehouse_id" TEXT,
    "warehouse_name" TEXT,
    "location_type_id" TEXT,
    "location_type_name" TEXT,
    "rate_period" TEXT,
    "pricing_config" JSONB,
    "pricing_trace" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "charges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "files" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "url" TEXT NOT NULL,
    "thumbnail_url" TEXT,
    "preview_blur_hash" TEXT,
    "mimetype" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "file_category" TEXT NOT NULL DEFAULT 'DOCUMENT',
    "processing_status" TEXT NOT NULL DEFAULT 'PENDING',
    "tags" JSONB NOT NULL,
    "search_text" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),
    "failed_at" TIMESTAMP(3),
    "last_error" TEXT,
    "result" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" JSONB NOT NULL,
    "secret" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "response_status" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "teams_kind_idx" ON "teams"("kind");

-- CreateIndex
CREATE INDEX "fulfillment_delegations_fulfiller_team_id_idx" ON "fulfillment_delegations"("fulfiller_team_id");

-- CreateIndex
CREATE UNIQUE INDEX "fulfillment_delegations_merchant_team_id_fulfiller_team_id_key" ON "fulfillment_delegations"("merchant_team_id", "fulfiller_team_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_token_hash_key" ON "api_keys"("token_hash");

-- CreateIndex
CREATE INDEX "api_keys_team_id_idx" ON "api_keys"("team_id");

-- CreateIndex
CREATE UNIQUE INDEX "roles_team_id_name_key" ON "roles"("team_id", "name");

-- CreateIndex
CREATE INDEX "api_key_roles_role_id_idx" ON "api_key_roles"("role_id");

-- CreateIndex
CREATE INDEX "rate_limit_counters_window_reset_idx" ON "rate_limit_counters"("window_reset");

-- CreateIndex
CREATE INDEX "warehouses_team_id_idx" ON "warehouses"("team_id");

-- CreateIndex
CREATE INDEX "location_types_team_id_idx" ON "location_types"("team_id");

-- CreateIndex
CREATE UNIQUE INDEX "shops_merchant_team_id_slug_key" ON "shops"("merchant_team_id", "slug");

-- CreateIndex
CREATE INDEX "products_team_id_created_at_idx" ON "products"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "products_team_id_updated_at_idx" ON "products"("team_id", "updated_at");

-- CreateIndex
CREATE INDEX "products_merchant_team_id_created_at_idx" ON "products"("merchant_team_id", "created_at");

-- CreateIndex
CREATE INDEX "products_fulfiller_team_id_created_at_idx" ON "products"("fulfiller_team_id", "created_at");

-- CreateIndex
CREATE INDEX "products_team_id_type_idx" ON "products"("team_id", "type");

-- CreateIndex
CREATE INDEX "products_sku_idx" ON "products"("sku");

-- CreateIndex
CREATE INDEX "products_barcode_idx" ON "products"("barcode");

-- CreateIndex
CREATE INDEX "product_components_component_product_id_idx" ON "product_components"("component_product_id");

-- CreateIndex
CREATE UNIQUE INDEX "product_components_parent_product_id_kind_component_product_key" ON "product_components"("parent_product_id", "kind", "component_product_id");

-- CreateIndex
CREATE INDEX "product_listing_variants_product_id_idx" ON "product_listing_variants"("product_id");

-- CreateIndex
CREATE INDEX "inventory_levels_warehouse_id_idx" ON "inventory_levels"("warehouse_id");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_levels_product_id_warehouse_id_key" ON "inventory_levels"("product_id", "warehouse_id");

-- CreateIndex
CREATE INDEX "vendors_merchant_team_id_created_at_idx" ON "vendors"("merchant_team_id", "created_at");

-- CreateIndex
CREATE INDEX "vendors_merchant_team_id_updated_at_idx" ON "vendors"("merchant_team_id", "updated_at");

-- CreateIndex
CREATE INDEX "vendor_products_product_id_idx" ON "vendor_products"("product_id");

-- CreateIndex
CREATE UNIQUE INDEX "draft_orders_order_id_key" ON "draft_orders"("order_id");

-- CreateIndex
CREATE INDEX "draft_orders_fulfiller_team_id_created_at_idx" ON "draft_orders"("fulfiller_team_id", "created_at");

-- CreateIndex
CREATE INDEX "draft_orders_fulfiller_team_id_status_created_at_idx" ON "draft_orders"("fulfiller_team_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "draft_order_line_items_draft_order_id_idx" ON "draft_order_line_items"("draft_order_id");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_created_at_idx" ON "orders"("fulfiller_team_id", "created_at");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_updated_at_idx" ON "orders"("fulfiller_team_id", "updated_at");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_status_idx" ON "orders"("fulfiller_team_id", "status");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_payment_status_idx" ON "orders"("fulfiller_team_id", "payment_status");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_fulfillment_status_idx" ON "orders"("fulfiller_team_id", "fulfillment_status");

-- CreateIndex
CREATE INDEX "orders_merchant_team_id_created_at_idx" ON "orders"("merchant_team_id", "created_at");

-- CreateIndex
CREATE INDEX "orders_priority_rank_created_at_idx" ON "orders"("priority_rank", "created_at");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_priority_rank_created_at_idx" ON "orders"("fulfiller_team_id", "priority_rank", "created_at");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_order_seq_idx" ON "orders"("fulfiller_team_id", "order_seq");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_order_number_key_idx" ON "orders"("fulfiller_team_id", "order_number_key");

-- CreateIndex
CREATE UNIQUE INDEX "orders_fulfiller_team_id_order_number_key" ON "orders"("fulfiller_team_id", "order_number");

-- CreateIndex
CREATE INDEX "order_line_items_order_id_kind_idx" ON "order_line_items"("order_id", "kind");

-- CreateIndex
CREATE INDEX "order_line_items_product_id_unallocated_quantity_idx" ON "order_line_items"("product_id", "unallocated_quantity");

-- CreateIndex
CREATE INDEX "order_fulfillment_holds_order_id_active_idx" ON "order_fulfillment_holds"("order_id", "active");

-- CreateIndex
CREATE INDEX "fulfillment_orders_order_id_idx" ON "fulfillment_orders"("order_id");

-- CreateIndex
CREATE INDEX "fulfillment_orders_fulfiller_team_id_created_at_idx" ON "fulfillment_orders"("fulfiller_team_id", "created_at");

-- CreateIndex
CREATE INDEX "fulfillment_orders_fulfiller_team_id_status_created_at_idx" ON "fulfillment_orders"("fulfiller_team_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "fulfillment_orders_fulfiller_team_id_warehouse_id_created_a_idx" ON "fulfillment_orders"("fulfiller_team_id", "warehouse_id", "created_at");

-- CreateIndex
CREATE INDEX "fulfillment_orders_picking_session_id_idx" ON "fulfillment_orders"("picking_session_id");

-- CreateIndex
CREATE INDEX "fulfillment_order_line_items_fulfillment_order_id_idx" ON "fulfillment_order_line_items"("fulfillment_order_id");

-- CreateIndex
CREATE INDEX "picking_sessions_team_id_created_at_idx" ON "picking_sessions"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "totes_team_id_name_idx" ON "totes"("team_id", "name");

-- CreateIndex
CREATE INDEX "packages_fulfillment_order_id_idx" ON "packages"("fulfillment_order_id");

-- CreateIndex
CREATE INDEX "packages_fulfiller_team_id_created_at_idx" ON "packages"("fulfiller_team_id", "created_at");

-- CreateIndex
CREATE INDEX "packages_fulfiller_team_id_status_created_at_idx" ON "packages"("fulfiller_team_id", "status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "packages_fulfiller_team_id_idempotency_key_key" ON "packages"("fulfiller_team_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "package_line_items_package_id_idx" ON "package_line_items"("package_id");

-- CreateIndex
CREATE INDEX "package_line_items_core_fulfillment_order_line_item_id_idx" ON "package_line_items"("core_fulfillment_order_line_item_id");

-- CreateIndex
CREATE UNIQUE INDEX "shipping_labels_package_id_key" ON "shipping_labels"("package_id");

-- CreateIndex
CREATE UNIQUE INDEX "fulfillments_package_id_key" ON "fulfillments"("package_id");

-- CreateIndex
CREATE INDEX "fulfillments_fulfillment_order_id_idx" ON "fulfillments"("fulfillment_order_id");

-- CreateIndex
CREATE INDEX "fulfillments_order_id_idx" ON "fulfillments"("order_id");

-- CreateIndex
CREATE INDEX "carrier_rates_team_id_idx" ON "carrier_rates"("team_id");

-- CreateIndex
CREATE INDEX "charges_fulfiller_team_id_created_at_idx" ON "charges"("fulfiller_team_id", "created_at");

-- CreateIndex
CREATE INDEX "charges_fulfiller_team_id_category_created_at_idx" ON "charges"("fulfiller_team_id", "category", "created_at");

-- CreateIndex
CREATE INDEX "charges_fulfiller_team_id_order_id_idx" ON "charges"("fulfiller_team_id", "order_id");

-- CreateIndex
CREATE INDEX "charges_merchant_team_id_created_at_idx" ON "charges"("merchant_team_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "charges_fulfillment_id_category_key" ON "charges"("fulfillment_id", "category");

-- CreateIndex
CREATE INDEX "files_team_id_created_at_idx" ON "files"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "files_team_id_updated_at_idx" ON "files"("team_id", "updated_at");

-- CreateIndex
CREATE INDEX "files_team_id_name_idx" ON "files"("team_id", "name");

-- CreateIndex
CREATE INDEX "files_team_id_size_idx" ON "files"("team_id", "size");

-- CreateIndex
CREATE INDEX "outbox_events_delivered_at_next_attempt_at_idx" ON "outbox_events"("delivered_at", "next_attempt_at");

-- CreateIndex
CREATE INDEX "outbox_events_team_id_created_at_idx" ON "outbox_events"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_endpoints_team_id_idx" ON "webhook_endpoints"("team_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_key" ON "webhook_deliveries"("endpoint_id", "event_id");

-- AddForeignKey
ALTER TABLE "fulfillment_delegations" ADD CONSTRAINT "fulfillment_delegations_merchant_team_id_fkey" FOREIGN KEY ("merchant_team_id") REFERENCES "teams"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fulfillment_delegations" ADD CONSTRAINT "fulfillment_delegations_fulfiller_team_id_fkey" FOREIGN KEY ("fulfiller_team_id") REFERENCES "teams"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "roles" ADD CONSTRAINT "roles_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_roles" ADD CONSTRAINT "api_key_roles_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_roles" ADD CONSTRAINT "api_key_roles_role_id_fkey" FOREIGN KEY ("role_id") REFERENCES "roles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warehouses" ADD CONSTRAINT "warehouses_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "location_types" ADD CONSTRAINT "location_types_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_components" ADD CONSTRAINT "product_components_parent_product_id_fkey" FOREIGN KEY ("parent_product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_components" ADD CONSTRAINT "product_components_component_product_id_fkey" FOREIGN KEY ("component_product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_listing_variants" ADD CONSTRAINT "product_listing_variants_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inventory_levels" ADD CONSTRAINT "inventory_levels_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vendor_products" ADD CONSTRAINT "vendor_products_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vendor_products" ADD CONSTRAINT "vendor_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "draft_order_line_items" ADD CONSTRAINT "draft_order_line_items_draft_order_id_fkey" FOREIGN KEY ("draft_order_id") REFERENCES "draft_orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_line_items" ADD CONSTRAINT "order_line_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_fulfillment_holds" ADD CONSTRAINT "order_fulfillment_holds_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fulfillment_orders" ADD CONSTRAINT "fulfillment_orders_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fulfillment_order_line_items" ADD CONSTRAINT "fulfillment_order_line_items_fulfillment_order_id_fkey" FOREIGN KEY ("fulfillment_order_id") REFERENCES "fulfillment_orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "packages" ADD CONSTRAINT "packages_fulfillment_order_id_fkey" FOREIGN KEY ("fulfillment_order_id") REFERENCES "fulfillment_orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "package_line_items" ADD CONSTRAINT "package_line_items_package_id_fkey" FOREIGN KEY ("package_id") REFERENCES "packages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipping_labels" ADD CONSTRAINT "shipping_labels_package_id_fkey" FOREIGN KEY ("package_id") REFERENCES "packages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fulfillments" ADD CONSTRAINT "fulfillments_package_id_fkey" FOREIGN KEY ("package_id") REFERENCES "packages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
