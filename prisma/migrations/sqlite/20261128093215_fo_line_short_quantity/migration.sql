-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_fulfillment_order_line_items" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "fulfillment_order_id" TEXT NOT NULL,
    "order_line_item_id" TEXT NOT NULL,
    "product_id" TEXT,
    "sku" TEXT,
    "name" TEXT NOT NULL,
    "image_url" TEXT,
    "quantity" INTEGER NOT NULL,
    "remaining_quantity" INTEGER NOT NULL,
    "short_quantity" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "fulfillment_order_line_items_fulfillment_order_id_fkey" FOREIGN KEY ("fulfillment_order_id") REFERENCES "fulfillment_orders" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_fulfillment_order_line_items" ("created_at", "fulfillment_order_id", "id", "image_url", "name", "order_line_item_id", "product_id", "quantity", "remaining_quantity", "sku", "updated_at") SELECT "created_at", "fulfillment_order_id", "id", "image_url", "name", "order_line_item_id", "product_id", "quantity", "remaining_quantity", "sku", "updated_at" FROM "fulfillment_order_line_items";
DROP TABLE "fulfillment_order_line_items";
ALTER TABLE "new_fulfillment_order_line_items" RENAME TO "fulfillment_order_line_items";
CREATE INDEX "fulfillment_order_line_items_fulfillment_order_id_idx" ON "fulfillment_order_line_items"("fulfillment_order_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
