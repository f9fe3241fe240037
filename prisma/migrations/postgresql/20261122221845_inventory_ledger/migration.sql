-- CreateEnum
CREATE TYPE "InventoryBucket" AS ENUM ('on_hand', 'committed', 'unavailable', 'on_order');

-- CreateEnum
CREATE TYPE "InventoryMovementKind" AS ENUM ('RECEIVED', 'ADJUSTED', 'COUNTED', 'COMMITTED', 'RELEASED', 'FULFILLED', 'TRANSFER_OUT', 'TRANSFER_IN', 'RETURNED', 'ORDERED');

-- CreateTable
CREATE TABLE "inventory_movements" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "sku" TEXT,
    "warehouse_id" TEXT NOT NULL,
    "bucket" "InventoryBucket" NOT NULL,
    "delta" INTEGER NOT NULL,
    "kind" "InventoryMovementKind" NOT NULL,
    "reason" TEXT,
    "note" TEXT,
    "reference_type" TEXT,
    "reference_id" TEXT,
    "actor_key_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inventory_movements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "inventory_movements_warehouse_id_created_at_idx" ON "inventory_movements"("warehouse_id", "created_at");

-- CreateIndex
CREATE INDEX "inventory_movements_product_id_warehouse_id_created_at_idx" ON "inventory_movements"("product_id", "warehouse_id", "created_at");

-- CreateIndex
CREATE INDEX "inventory_movements_sku_created_at_idx" ON "inventory_movements"("sku", "created_at");

-- CreateIndex
CREATE INDEX "inventory_movements_kind_created_at_idx" ON "inventory_movements"("kind", "created_at");

-- CreateIndex
CREATE INDEX "inventory_movements_reference_id_idx" ON "inventory_movements"("reference_id");
