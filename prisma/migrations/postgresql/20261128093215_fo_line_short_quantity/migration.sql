-- AlterTable
ALTER TABLE "fulfillment_order_line_items" ADD COLUMN     "short_quantity" INTEGER NOT NULL DEFAULT 0;
