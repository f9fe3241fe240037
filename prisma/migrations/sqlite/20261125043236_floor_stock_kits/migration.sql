-- AlterTable
ALTER TABLE "inventory_movements" ADD COLUMN "work_order_id" TEXT;

-- CreateTable
CREATE TABLE "work_orders" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "sku" TEXT,
    "quantity" INTEGER NOT NULL,
    "location_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'COMPLETED',
    "note" TEXT,
    "components" JSONB NOT NULL,
    "actor_key_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "work_orders_team_id_created_at_id_idx" ON "work_orders"("team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "work_orders_team_id_warehouse_id_created_at_id_idx" ON "work_orders"("team_id", "warehouse_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "work_orders_team_id_product_id_created_at_id_idx" ON "work_orders"("team_id", "product_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "location_stock_warehouse_id_product_id_idx" ON "location_stock"("warehouse_id", "product_id");

-- CreateIndex
CREATE INDEX "inventory_movements_work_order_id_idx" ON "inventory_movements"("work_order_id");
