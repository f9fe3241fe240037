-- AlterTable
ALTER TABLE "warehouses" ADD COLUMN     "label_format" TEXT NOT NULL DEFAULT 'PDF';

-- AlterTable
ALTER TABLE "packages" ADD COLUMN     "label_format" TEXT;
