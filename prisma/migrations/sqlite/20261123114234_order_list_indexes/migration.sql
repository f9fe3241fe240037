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
INSERT INTO "new_orders" ("address_hash", "address_residential", "address_verification_response", "address_verified", "address_verified_at", "billing_address", "cancelled_at", "carrier_selection", "closed_at", "config", "core_line_item_count", "created_at", "currency", "current_shipping", "customer_email", "customer_name", "customer_phone", "deliver_by", "fulfiller_team_id", "fulfillment_count", "fulfillment_status", "id", "is_fragile", "line_item_hash", "line_item_image_urls", "lock_address", "merchant_team_id", "metadata", "note", "order_number", "order_number_key", "order_seq", "payment_status", "priority", "priority_rank", "remote_id", "search_text", "shipping_address", "shipping_latitude", "shipping_longitude", "shipping_method", "shop_id", "status", "synced_at", "tags", "total_discount", "total_outstanding", "total_price", "total_shipping", "total_tax", "tracking_count", "unallocated_quantity", "unique_core_line_item_count", "updated_at") SELECT "address_hash", "address_residential", "address_verification_response", "address_verified", "address_verified_at", "billing_address", "cancelled_at", "carrier_selection", "closed_at", "config", "core_line_item_count", "created_at", "currency", "current_shipping", "customer_email", "customer_name", "customer_phone", "deliver_by", "fulfiller_team_id", "fulfillment_count", "fulfillment_status", "id", "is_fragile", "line_item_hash", "line_item_image_urls", "lock_address", "merchant_team_id", "metadata", "note", "order_number", "order_number_key", "order_seq", "payment_status", "priority", "priority_rank", "remote_id", "search_text", "shipping_address", "shipping_latitude", "shipping_longitude", "shipping_method", "shop_id", "status", "synced_at", "tags", "total_discount", "total_outstanding", "total_price", "total_shipping", "total_tax", "tracking_count", "unallocated_quantity", "unique_core_line_item_count", "updated_at" FROM "orders";
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
CREATE INDEX "orders_priority_rank_created_at_idx" ON "orders"("priority_rank", "created_at");
CREATE INDEX "orders_fulfiller_team_id_priority_rank_created_at_idx" ON "orders"("fulfiller_team_id", "priority_rank", "created_at");
CREATE INDEX "orders_fulfiller_team_id_order_seq_idx" ON "orders"("fulfiller_team_id", "order_seq");
CREATE INDEX "orders_fulfiller_team_id_order_number_key_idx" ON "orders"("fulfiller_team_id", "order_number_key");
CREATE UNIQUE INDEX "orders_fulfiller_team_id_order_number_key" ON "orders"("fulfiller_team_id", "order_number");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Backfill the order-number sort columns (numberColumns() maintains them from now on).
UPDATE "orders" SET
  "order_number_class" = CASE WHEN "order_seq" IS NULL THEN 1 ELSE 0 END,
  "order_sort_key" = CASE WHEN "order_seq" IS NULL THEN "order_number_key" ELSE printf('%010d', "order_seq") END;

-- Order search on SQLite: an FTS5 trigram index of orders.search_text, so a substring search is an
-- index lookup, not a scan. FTS rows are keyed by order_search_ids.id, an INTEGER PRIMARY KEY,
-- which (unlike the rowid of orders) VACUUM never renumbers. Triggers keep it in step with every
-- write; test/unit/order-search.test.ts fails if a later migration that rebuilds "orders" drops them.
CREATE TABLE "order_search_ids" ("id" INTEGER PRIMARY KEY, "order_id" TEXT NOT NULL UNIQUE);
CREATE VIRTUAL TABLE "order_search" USING fts5("text", tokenize = 'trigram');
INSERT INTO "order_search_ids" ("order_id") SELECT "id" FROM "orders";
INSERT INTO "order_search" ("rowid", "text")
  SELECT s."id", o."search_text" FROM "order_search_ids" s JOIN "orders" o ON o."id" = s."order_id";
CREATE TRIGGER "orders_search_insert" AFTER INSERT ON "orders" BEGIN
  INSERT INTO "order_search_ids" ("order_id") VALUES (new."id");
  INSERT INTO "order_search" ("rowid", "text") VALUES ((SELECT "id" FROM "order_search_ids" WHERE "order_id" = new."id"), new."search_text");
END;
CREATE TRIGGER "orders_search_update" AFTER UPDATE OF "search_text" ON "orders" WHEN old."search_text" IS NOT new."search_text" BEGIN
  DELETE FROM "order_search" WHERE "rowid" = (SELECT "id" FROM "order_search_ids" WHERE "order_id" = new."id");
  INSERT INTO "order_search" ("rowid", "text") VALUES ((SELECT "id" FROM "order_search_ids" WHERE "order_id" = new."id"), new."search_text");
END;
CREATE TRIGGER "orders_search_delete" AFTER DELETE ON "orders" BEGIN
  DELETE FROM "order_search" WHERE "rowid" = (SELECT "id" FROM "order_search_ids" WHERE "order_id" = old."id");
  DELETE FROM "order_search_ids" WHERE "order_id" = old."id";
END;
