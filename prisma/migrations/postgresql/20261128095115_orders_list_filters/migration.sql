-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_merchant_team_id_created_at_id_idx" ON "orders"("fulfiller_team_id", "merchant_team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_shop_id_created_at_id_idx" ON "orders"("fulfiller_team_id", "shop_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "order_fulfillment_holds_active_order_id_idx" ON "order_fulfillment_holds"("active", "order_id");
