-- CreateIndex
CREATE INDEX "inventory_movements_product_id_warehouse_id_bucket_idx" ON "inventory_movements"("product_id", "warehouse_id", "bucket");
