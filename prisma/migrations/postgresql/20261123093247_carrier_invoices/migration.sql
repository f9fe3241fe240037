-- AlterTable
ALTER TABLE "shipping_labels" ADD COLUMN     "correction_version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "carrier_invoice_imports" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "line_count" INTEGER NOT NULL,
    "result" JSONB NOT NULL,
    "created_by_key_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "carrier_invoice_imports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "carrier_invoice_imports_team_id_created_at_idx" ON "carrier_invoice_imports"("team_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "carrier_invoice_imports_team_id_content_hash_key" ON "carrier_invoice_imports"("team_id", "content_hash");

-- CreateIndex
CREATE INDEX "shipping_labels_fulfiller_team_id_tracking_code_idx" ON "shipping_labels"("fulfiller_team_id", "tracking_code");
