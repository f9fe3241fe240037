-- CreateTable
CREATE TABLE "automation_rule_versions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "change" TEXT NOT NULL,
    "key_id" TEXT,
    "key_name" TEXT,
    "before" JSONB,
    "after" JSONB,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_orders" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "order_number" TEXT NOT NULL,
    "remote_id" TEXT,
    "synced_at" DATETIME,
    "closed_at" DATETIME,
    "cancelled_at" DATETIME,
    "cancel_reason" TEXT,
    "merchant_team_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "shop_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "fulfillment_status" TEXT NOT NULL DEFAULT 'UNFULFILLED',
    "payment_status" TEXT NOT NULL DEFAULT 'PENDING',
    "priority" TEXT NOT NULL DEFAULT 'NORMAL',
    "priority_rank" INTEGER NOT NULL DEFAULT 2,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "note" TEXT,
    "shipping_method" TEXT,
    "deliver_by" DATETIME,
    "line_item_hash" TEXT,
    "tags" JSONB NOT NULL,
    "total_price" REAL NOT NULL DEFAULT 0,
    "total_tax" REAL NOT NULL DEFAULT 0,
    "total_discount" REAL NOT NULL DEFAULT 0,
    "total_shipping" REAL NOT NULL DEFAULT 0,
    "current_shipping" REAL NOT NULL DEFAULT 0,
    "total_outstanding" REAL NOT NULL DEFAULT 0,
    "metadata" JSONB,
    "shipping_address" JSONB,
    "shipping_latitude" REAL,
    "shipping_longitude" REAL,
    "billing_address" JSONB,
    "customer_email" TEXT,
    "customer_name" TEXT,
    "customer_phone" TEXT,
    "carrier_selection" JSONB,
    "automation_trace" JSONB,
    "routed_warehouse_id" TEXT,
    "routed_warehouse_only" BOOLEAN NOT NULL DEFAULT false,
    "lock_address" BOOLEAN NOT NULL DEFAULT false,
    "address_verified" BOOLEAN NOT NULL DEFAULT false,
    "address_residential" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "address_verified_at" DATETIME,
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
    "order_number_class" INTEGER NOT NULL DEFAULT 1,
    "order_sort_key" TEXT NOT NULL DEFAULT '',
    "unallocated_quantity" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_orders" ("address_hash", "address_residential", "address_verification_response", "address_verified", "address_verified_at", "automation_trace", "billing_address", "cancel_reason", "cancelled_at", "carrier_selection", "closed_at", "config", "core_line_item_count", "created_at", "currency", "current_shipping", "customer_email", "customer_name", "customer_phone", "deliver_by", "fulfiller_team_id", "fulfillment_count", "fulfillment_status", "id", "is_fragile", "line_item_hash", "line_item_image_urls", "lock_address", "merchant_team_id", "metadata", "note", "order_number", "order_number_class", "order_number_key", "order_seq", "order_sort_key", "payment_status", "priority", "priority_rank", "remote_id", "search_text", "shipping_address", "shipping_latitude", "shipping_longitude", "shipping_method", "shop_id", "status", "synced_at", "tags", "total_discount", "total_outstanding", "total_price", "total_shipping", "total_tax", "tracking_count", "unallocated_quantity", "unique_core_line_item_count", "updated_at") SELECT "address_hash", "address_residential", "address_verification_response", "address_verified", "address_verified_at", "automation_trace", "billing_address", "cancel_reason", "cancelled_at", "carrier_selection", "closed_at", "config", "core_line_item_count", "created_at", "currency", "current_shipping", "customer_email", "customer_name", "customer_phone", "deliver_by", "fulfiller_team_id", "fulfillment_count", "fulfillment_status", "id", "is_fragile", "line_item_hash", "line_item_image_urls", "lock_address", "merchant_team_id", "metadata", "note", "order_number", "order_number_class", "order_number_key", "order_seq", "order_sort_key", "payment_status", "priority", "priority_rank", "remote_id", "search_text", "shipping_address", "shipping_latitude", "shipping_longitude", "shipping_method", "shop_id", "status", "synced_at", "tags", "total_discount", "total_outstanding", "total_price", "total_shipping", "total_tax", "tracking_count", "unallocated_quantity", "unique_core_line_item_count", "updated_at" FROM "orders";
DROP TABLE "orders";
ALTER TABLE "new_orders" RENAME TO "orders";
CREATE INDEX "orders_fulfiller_team_id_created_at_id_idx" ON "orders"("fulfiller_team_id", "created_at", "id");
CREATE INDEX "orders_fulfiller_team_id_updated_at_id_idx" ON "orders"("fulfiller_team_id", "updated_at", "id");
CREATE INDEX "orders_fulfiller_team_id_status_created_at_id_idx" ON "orders"("fulfiller_team_id", "status", "created_at", "id");
CREATE INDEX "orders_fulfiller_team_id_payment_status_created_at_id_idx" ON "orders"("fulfiller_team_id", "payment_status", "created_at", "id");
CREATE INDEX "orders_fulfiller_team_id_fulfillment_status_created_at_id_idx" ON "orders"("fulfiller_team_id", "fulfillment_status", "created_at", "id");
CREATE INDEX "orders_fulfiller_team_id_order_number_class_order_sort_key_id_idx" ON "orders"("fulfiller_team_id", "order_number_class", "order_sort_key", "id");
CREATE INDEX "orders_fulfiller_team_id_order_number_desc_idx" ON "orders"("fulfiller_team_id", "order_number_class", "order_sort_key" DESC, "id" DESC);
CREATE INDEX "orders_merchant_team_id_created_at_idx" ON "orders"("merchant_team_id", "created_at");
CREATE INDEX "orders_fulfiller_team_id_merchant_team_id_created_at_id_idx" ON "orders"("fulfiller_team_id", "merchant_team_id", "created_at", "id");
CREATE INDEX "orders_fulfiller_team_id_shop_id_created_at_id_idx" ON "orders"("fulfiller_team_id", "shop_id", "created_at", "id");
CREATE INDEX "orders_priority_rank_created_at_idx" ON "orders"("priority_rank", "created_at");
CREATE INDEX "orders_fulfiller_team_id_priority_rank_created_at_idx" ON "orders"("fulfiller_team_id", "priority_rank", "created_at");
CREATE INDEX "orders_fulfiller_team_id_order_seq_idx" ON "orders"("fulfiller_team_id", "order_seq");
CREATE INDEX "orders_fulfiller_team_id_order_number_key_idx" ON "orders"("fulfiller_team_id", "order_number_key");
CREATE UNIQUE INDEX "orders_fulfiller_team_id_order_number_key" ON "orders"("fulfiller_team_id", "order_number");
CREATE UNIQUE INDEX "orders_shop_id_remote_id_key" ON "orders"("shop_id", "remote_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "automation_rule_versions_team_id_rule_id_created_at_id_idx" ON "automation_rule_versions"("team_id", "rule_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "automation_rule_versions_rule_id_version_change_key" ON "automation_rule_versions"("rule_id", "version", "change");
