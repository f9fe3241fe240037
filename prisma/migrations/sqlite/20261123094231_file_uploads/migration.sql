-- AlterTable
ALTER TABLE "files" ADD COLUMN "processing_error" TEXT;
ALTER TABLE "files" ADD COLUMN "processing_started_at" DATETIME;
ALTER TABLE "files" ADD COLUMN "storage_key" TEXT;

-- CreateIndex
CREATE INDEX "files_processing_status_created_at_idx" ON "files"("processing_status", "created_at");
