-- AlterTable
ALTER TABLE "files" ADD COLUMN     "processing_error" TEXT,
ADD COLUMN     "processing_started_at" TIMESTAMP(3),
ADD COLUMN     "storage_key" TEXT;

-- CreateIndex
CREATE INDEX "files_processing_status_created_at_idx" ON "files"("processing_status", "created_at");
