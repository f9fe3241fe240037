-- CreateTable
CREATE TABLE "inventory_movements" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "product_id" TEXT NOT NULL,
    "sku" TEXT,
    "warehouse_id" TEXT NOT NULL,
    "bucket" TEXT NOT NULL,
    "delta" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "reason" TEXT,
    "note" TEXT,
    "reference_type" TEXT,
    "reference_id" TEXT,
    "actor_key_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
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
