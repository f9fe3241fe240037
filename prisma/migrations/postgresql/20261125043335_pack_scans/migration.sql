-- CreateTable
CREATE TABLE "pack_scans" (
    "id" TEXT NOT NULL,
    "fulfillment_order_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "fo_line_item_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "sku" TEXT,
    "lot_code" TEXT,
    "expiration_date" TEXT,
    "quantity" INTEGER NOT NULL,
    "tote_id" TEXT,
    "package_id" TEXT,
    "user_id" TEXT,
    "user_name" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pack_scans_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pack_scans_fulfillment_order_id_package_id_idx" ON "pack_scans"("fulfillment_order_id", "package_id");
