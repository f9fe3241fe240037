-- CreateTable
CREATE TABLE "label_batches" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'RUNNING',
    "rate_strategy" TEXT,
    "carrier_id" TEXT,
    "service_id" TEXT,
    "label_format" TEXT NOT NULL DEFAULT 'PDF',
    "packing_slips" BOOLEAN NOT NULL DEFAULT false,
    "picking_session_id" TEXT,
    "origin" TEXT NOT NULL,
    "package_count" INTEGER NOT NULL,
    "lease_until" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by_key_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    "completed_at" DATETIME
);

-- CreateTable
CREATE TABLE "label_batch_items" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "batch_id" TEXT NOT NULL,
    "package_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "message" TEXT,
    "tracking_number" TEXT,
    "carrier_id" TEXT,
    "service_id" TEXT,
    "cost" REAL,
    "cost_currency" TEXT,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "label_batch_items_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "label_batches" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "label_batches_team_id_created_at_idx" ON "label_batches"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "label_batches_status_lease_until_idx" ON "label_batches"("status", "lease_until");

-- CreateIndex
CREATE INDEX "label_batch_items_batch_id_position_idx" ON "label_batch_items"("batch_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "label_batch_items_batch_id_package_id_key" ON "label_batch_items"("batch_id", "package_id");
