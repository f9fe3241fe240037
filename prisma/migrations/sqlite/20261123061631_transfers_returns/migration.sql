-- CreateTable
CREATE TABLE "inventory_transfers" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "from_warehouse_id" TEXT NOT NULL,
    "to_warehouse_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'IN_TRANSIT',
    "reference" TEXT,
    "note" TEXT,
    "created_by_key_id" TEXT,
    "received_at" DATETIME,
    "cancelled_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "inventory_transfer_lines" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "transfer_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "sku" TEXT,
    "quantity" INTEGER NOT NULL,
    "quantity_received" INTEGER NOT NULL DEFAULT 0,
    "quantity_damaged" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "inventory_transfer_lines_transfer_id_fkey" FOREIGN KEY ("transfer_id") REFERENCES "inventory_transfers" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "returns" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "fulfillment_delegation_id" TEXT,
    "warehouse_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "reference" TEXT,
    "note" TEXT,
    "created_by_key_id" TEXT,
    "received_at" DATETIME,
    "cancelled_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "return_lines" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "return_id" TEXT NOT NULL,
    "order_line_item_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "sku" TEXT,
    "quantity" INTEGER NOT NULL,
    "quantity_received" INTEGER NOT NULL DEFAULT 0,
    "quantity_restocked" INTEGER NOT NULL DEFAULT 0,
    "quantity_damaged" INTEGER NOT NULL DEFAULT 0,
    "reason" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "return_lines_return_id_fkey" FOREIGN KEY ("return_id") REFERENCES "returns" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_order_line_items" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "order_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
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
    "returned_quantity" INTEGER NOT NULL DEFAULT 0,
    "unallocated_quantity" INTEGER NOT NULL DEFAULT 0,
    "applied_discount_amount" REAL NOT NULL DEFAULT 0,
    "price" REAL NOT NULL DEFAULT 0,
    "synced_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "order_line_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_order_line_items" ("applied_discount_amount", "core_draft_order_line_item_id", "created_at", "id", "image_url", "kind", "name", "order_id", "original_draft_order_line_item_id", "price", "product_id", "product_listing_id", "product_listing_variant_id", "remaining_quantity", "remote_id", "removed_quantity", "shop_id", "sku", "synced_at", "total_quantity", "unallocated_quantity", "unsynced_quantity", "updated_at") SELECT "applied_discount_amount", "core_draft_order_line_item_id", "created_at", "id", "image_url", "kind", "name", "order_id", "original_draft_order_line_item_id", "price", "product_id", "product_listing_id", "product_listing_variant_id", "remaining_quantity", "remote_id", "removed_quantity", "shop_id", "sku", "synced_at", "total_quantity", "unallocated_quantity", "unsynced_quantity", "updated_at" FROM "order_line_items";
DROP TABLE "order_line_items";
ALTER TABLE "new_order_line_items" RENAME TO "order_line_items";
CREATE INDEX "order_line_items_order_id_kind_idx" ON "order_line_items"("order_id", "kind");
CREATE INDEX "order_line_items_product_id_unallocated_quantity_idx" ON "order_line_items"("product_id", "unallocated_quantity");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "inventory_transfers_team_id_created_at_idx" ON "inventory_transfers"("team_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_transfer_lines_transfer_id_product_id_key" ON "inventory_transfer_lines"("transfer_id", "product_id");

-- CreateIndex
CREATE INDEX "returns_team_id_created_at_idx" ON "returns"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "returns_order_id_idx" ON "returns"("order_id");

-- CreateIndex
CREATE UNIQUE INDEX "return_lines_return_id_order_line_item_id_key" ON "return_lines"("return_id", "order_line_item_id");
