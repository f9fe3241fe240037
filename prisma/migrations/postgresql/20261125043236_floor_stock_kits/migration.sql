-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "InventoryMovementKind" ADD VALUE 'CONSUMED';
ALTER TYPE "InventoryMovementKind" ADD VALUE 'ASSEMBLED';

-- AlterTable
ALTER TABLE "inventory_movements" ADD COLUMN     "work_order_id" TEXT;

-- CreateTable
CREATE TABLE "work_orders" (
    "id" TEXT NOT NULL,
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
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "work_orders_pkey" PRIMARY KEY ("id")
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
