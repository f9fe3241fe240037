-- AlterTable
ALTER TABLE "shipping_labels" ADD COLUMN "remote_transaction_id" TEXT;

-- CreateTable
CREATE TABLE "carrier_integrations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "api_base_url" TEXT,
    "credentials_sealed" TEXT,
    "has_webhook_secret" BOOLEAN NOT NULL DEFAULT false,
    "warehouse_ids" JSONB,
    "enabled_carriers" JSONB,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "is_test" BOOLEAN NOT NULL DEFAULT false,
    "disabled_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "label_purchases" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "package_id" TEXT NOT NULL,
    "active_package_id" TEXT,
    "integration_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "label_format" TEXT NOT NULL DEFAULT 'PDF',
    "rate" JSONB NOT NULL,
    "remote_shipment_id" TEXT,
    "remote_transaction_id" TEXT,
    "lease_until" DATETIME NOT NULL,
    "origin" TEXT NOT NULL,
    "error_message" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "carrier_documents" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "package_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" BLOB NOT NULL,
    "source_url" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "tracking_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shipping_label_id" TEXT NOT NULL,
    "package_id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "integration_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "provider_status" TEXT,
    "message" TEXT,
    "occurred_at" DATETIME NOT NULL,
    "location" JSONB,
    "dedupe_key" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "address_verifications" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "integration_id" TEXT NOT NULL,
    "address_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "verified" BOOLEAN NOT NULL,
    "residential" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "carrier_integrations_team_id_created_at_id_idx" ON "carrier_integrations"("team_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "label_purchases_active_package_id_key" ON "label_purchases"("active_package_id");

-- CreateIndex
CREATE INDEX "label_purchases_state_lease_until_idx" ON "label_purchases"("state", "lease_until");

-- CreateIndex
CREATE INDEX "label_purchases_package_id_idx" ON "label_purchases"("package_id");

-- CreateIndex
CREATE INDEX "carrier_documents_package_id_kind_created_at_idx" ON "carrier_documents"("package_id", "kind", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "tracking_events_dedupe_key_key" ON "tracking_events"("dedupe_key");

-- CreateIndex
CREATE INDEX "tracking_events_package_id_occurred_at_id_idx" ON "tracking_events"("package_id", "occurred_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "address_verifications_team_id_address_hash_key" ON "address_verifications"("team_id", "address_hash");
