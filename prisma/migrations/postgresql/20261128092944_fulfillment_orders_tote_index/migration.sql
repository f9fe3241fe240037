-- CreateIndex
CREATE INDEX "fulfillment_orders_tote_id_idx" ON "fulfillment_orders"("tote_id");
