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

-- AlterTable (by ADD COLUMN, not by redefining the table: a redefinition would drop the
-- fulfillment_order_counts triggers on it)
ALTER TABLE "fulfillment_orders" ADD COLUMN "picked_by_user_id" TEXT;
ALTER TABLE "fulfillment_orders" ADD COLUMN "picked_by_user_name" TEXT;
ALTER TABLE "fulfillment_orders" ADD COLUMN "short_picked" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "pick_scans_picking_session_id_created_at_idx" ON "pick_scans"("picking_session_id", "created_at");

-- CreateIndex
CREATE INDEX "pick_scans_fulfillment_order_id_idx" ON "pick_scans"("fulfillment_order_id");

-- CreateIndex
CREATE INDEX "pick_scans_product_id_idx" ON "pick_scans"("product_id");
