-- CreateEnum
CREATE TYPE "PurchaseOrderStatus" AS ENUM ('OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CLOSED', 'CANCELLED');

-- AlterTable
ALTER TABLE "inventory_movements" ADD COLUMN     "expiration_date" TEXT,
ADD COLUMN     "lot_code" TEXT;

-- CreateTable
CREATE TABLE "purchase_orders" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "merchant_team_id" TEXT,
    "fulfillment_delegation_id" TEXT,
    "vendor_id" TEXT,
    "reference" TEXT,
    "expected_at" TIMESTAMP(3),
    "status" "PurchaseOrderStatus" NOT NULL DEFAULT 'OPEN',
    "created_by_key_id" TEXT,
    "created_by_team_id" TEXT NOT NULL,
    "received_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "cancelled_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "purchase_orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchase_order_lines" (
    "id" TEXT NOT NULL,
    "purchase_order_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "sku" TEXT,
    "quantity" INTEGER NOT NULL,
    "quantity_received" INTEGER NOT NULL DEFAULT 0,
    "quantity_damaged" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "purchase_order_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "purchase_orders_team_id_created_at_idx" ON "purchase_orders"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "purchase_orders_team_id_status_created_at_idx" ON "purchase_orders"("team_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "purchase_orders_merchant_team_id_created_at_idx" ON "purchase_orders"("merchant_team_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "purchase_order_lines_purchase_order_id_product_id_key" ON "purchase_order_lines"("purchase_order_id", "product_id");

-- AddForeignKey
ALTER TABLE "purchase_order_lines" ADD CONSTRAINT "purchase_order_lines_purchase_order_id_fkey" FOREIGN KEY ("purchase_order_id") REFERENCES "purchase_orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
