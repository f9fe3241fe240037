-- AlterTable
ALTER TABLE "locations" ADD COLUMN "count_requested_at" DATETIME;

-- AlterTable
ALTER TABLE "package_line_items" ADD COLUMN "location_id" TEXT;

-- CreateTable
CREATE TABLE "pick_scans" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "picking_session_id" TEXT NOT NULL,
    "fulfillment_order_id" TEXT NOT NULL,
    "fulfillment_order_line_item_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "location_id" TEXT NOT NULL,
    "lot_code" TEXT NOT NULL DEFAULT '',
    "expiration_date" TEXT,
    "quantity" INTEGER NOT NULL,
    "short" BOOLEAN NOT NULL DEFAULT false,
    "user_id" TEXT,
    "user_name" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_fulfillment_orders" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "order_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "request_status" TEXT NOT NULL DEFAULT 'UNSUBMITTED',
    "lock_owner" TEXT,
    "lock_expires_at" DATETIME,
    "picking_session_id" TEXT,
    "tote_id" TEXT,
    "packing_started_at" DATETIME,
    "packing_completed_at" DATETIME,
    "packed_by_user_id" TEXT,
    "packed_by_user_name" TEXT,
    "picked_by_user_id" TEXT,
    "picked_by_user_name" TEXT,
    "short_picked" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "fulfillment_orders_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_fulfillment_orders" ("created_at", "fulfiller_team_id", "id", "lock_expires_at", "lock_owner", "merchant_team_id", "order_id", "packed_by_user_id", "packed_by_user_name", "packing_completed_at", "packing_started_at", "picking_session_id", "request_status", "status", "tote_id", "updated_at", "warehouse_id") SELECT "created_at", "fulfiller_team_id", "id", "lock_expires_at", "lock_owner", "merchant_team_id", "order_id", "packed_by_user_id", "packed_by_user_name", "packing_completed_at", "packing_started_at", "picking_session_id", "request_status", "status", "tote_id", "updated_at", "warehouse_id" FROM "fulfillment_orders";
DROP TABLE "fulfillment_orders";
ALTER TABLE "new_fulfillment_orders" RENAME TO "fulfillment_orders";
CREATE INDEX "fulfillment_orders_order_id_idx" ON "fulfillment_orders"("order_id");
CREATE INDEX "fulfillment_orders_fulfiller_team_id_created_at_idx" ON "fulfillment_orders"("fulfiller_team_id", "created_at");
CREATE INDEX "fulfillment_orders_fulfiller_team_id_status_created_at_idx" ON "fulfillment_orders"("fulfiller_team_id", "status", "created_at");
CREATE INDEX "fulfillment_orders_fulfiller_team_id_warehouse_id_created_at_idx" ON "fulfillment_orders"("fulfiller_team_id", "warehouse_id", "created_at");
CREATE INDEX "fulfillment_orders_picking_session_id_idx" ON "fulfillment_orders"("picking_session_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "pick_scans_picking_session_id_created_at_idx" ON "pick_scans"("picking_session_id", "created_at");

-- CreateIndex
CREATE INDEX "pick_scans_fulfillment_order_id_idx" ON "pick_scans"("fulfillment_order_id");

-- CreateIndex
CREATE INDEX "pick_scans_product_id_idx" ON "pick_scans"("product_id");
