-- AlterTable
ALTER TABLE "packages" ADD COLUMN "rate_exclude_carrier_ids" JSONB;
ALTER TABLE "packages" ADD COLUMN "rate_within_days" INTEGER;

-- AlterTable
ALTER TABLE "label_batches" ADD COLUMN "rate_exclude_carrier_ids" JSONB;
ALTER TABLE "label_batches" ADD COLUMN "rate_within_days" INTEGER;
