-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "cancel_reason" TEXT;
