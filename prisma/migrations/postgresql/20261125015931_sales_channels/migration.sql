-- CreateTable
CREATE TABLE "shop_connections" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "shop_type" "ShopType" NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "credentials" TEXT NOT NULL,
    "shop_domain" TEXT NOT NULL,
    "api_base_url" TEXT NOT NULL,
    "api_version" TEXT,
    "settings" JSONB NOT NULL,
    "last_check_at" TIMESTAMP(3),
    "last_check_ok" BOOLEAN,
    "last_sync_at" TIMESTAMP(3),
    "sync_cursor" TIMESTAMP(3),
    "sync_lease_until" TIMESTAMP(3),
    "last_error" TEXT,
    "last_error_at" TIMESTAMP(3),
    "webhooks_received" INTEGER NOT NULL DEFAULT 0,
    "last_webhook_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "shop_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel_deliveries" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "remote_id" TEXT,
    "webhook_id" TEXT,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'RECEIVED',
    "error" TEXT,
    "order_id" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "processed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "channel_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel_pushes" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "channel_pushes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel_stock_pushes" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "due_at" TIMESTAMP(3) NOT NULL,
    "dirty" BOOLEAN NOT NULL DEFAULT true,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "claim_id" TEXT,
    "last_error" TEXT,
    "pushed_at" TIMESTAMP(3),
    "pushed_qty" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "channel_stock_pushes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "shop_connections_shop_id_key" ON "shop_connections"("shop_id");

-- CreateIndex
CREATE INDEX "shop_connections_active_last_sync_at_idx" ON "shop_connections"("active", "last_sync_at");

-- CreateIndex
CREATE INDEX "channel_deliveries_shop_id_created_at_id_idx" ON "channel_deliveries"("shop_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "channel_deliveries_shop_id_status_created_at_id_idx" ON "channel_deliveries"("shop_id", "status", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "channel_pushes_event_id_key" ON "channel_pushes"("event_id");

-- CreateIndex
CREATE INDEX "channel_pushes_order_id_created_at_idx" ON "channel_pushes"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "channel_pushes_shop_id_status_idx" ON "channel_pushes"("shop_id", "status");

-- CreateIndex
CREATE INDEX "channel_stock_pushes_dirty_due_at_idx" ON "channel_stock_pushes"("dirty", "due_at");

-- CreateIndex
CREATE UNIQUE INDEX "channel_stock_pushes_shop_id_product_id_key" ON "channel_stock_pushes"("shop_id", "product_id");

-- CreateIndex
CREATE INDEX "product_listing_variants_sku_idx" ON "product_listing_variants"("sku");

-- CreateIndex
CREATE UNIQUE INDEX "product_listing_variants_shop_id_remote_id_key" ON "product_listing_variants"("shop_id", "remote_id");

-- CreateIndex
CREATE UNIQUE INDEX "orders_shop_id_remote_id_key" ON "orders"("shop_id", "remote_id");
