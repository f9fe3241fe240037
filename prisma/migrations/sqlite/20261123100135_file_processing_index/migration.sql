-- DropIndex
DROP INDEX "files_processing_status_created_at_idx";

-- CreateIndex
CREATE INDEX "files_processing_status_storage_key_idx" ON "files"("processing_status", "storage_key");
