-- CreateTable
CREATE TABLE "carrier_invoice_imports" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "line_count" INTEGER NOT NULL,
    "result" JSONB NOT NULL,
    "created_by_key_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_shipping_labels" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "package_id" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "tracking_code" TEXT,
    "tracking_url" TEXT,
    "label_url" TEXT,
    "original_label_url" TEXT,
    "label_with_packing_slip_url" TEXT,
    "shipment_status" TEXT NOT NULL DEFAULT 'LABEL_PRINTED',
    "refund_status" TEXT,
    "scan_status" TEXT,
    "zone" TEXT,
    "price" REAL,
    "currency" TEXT,
    "list_rate" REAL,
    "list_currency" TEXT,
    "retail_price" REAL,
    "retail_currency" TEXT,
    "delivery_date" DATETIME,
    "delivery_date_guaranteed" BOOLEAN NOT NULL DEFAULT false,
    "delivery_days" INTEGER,
    "formatted_service" TEXT,
    "carrier_name" TEXT,
    "carrier_id" TEXT,
    "service_id" TEXT,
    "carrier_account_id" TEXT,
    "carrier_integration_id" TEXT,
    "carrier_integration_name" TEXT,
    "carrier_integration_type" TEXT,
    "gaylord_id" TEXT,
    "shipping_label_number" TEXT,
    "voided_at" DATETIME,
    "remote_id" TEXT,
    "from_address" JSONB,
    "to_address" JSONB,
    "carrier_correction" JSONB,
    "correction_version" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "shipping_labels_package_id_fkey" FOREIGN KEY ("package_id") REFERENCES "packages" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_shipping_labels" ("carrier_account_id", "carrier_correction", "carrier_id", "carrier_integration_id", "carrier_integration_name", "carrier_integration_type", "carrier_name", "created_at", "currency", "delivery_date", "delivery_date_guaranteed", "delivery_days", "formatted_service", "from_address", "fulfiller_team_id", "gaylord_id", "id", "label_url", "label_with_packing_slip_url", "list_currency", "list_rate", "merchant_team_id", "original_label_url", "package_id", "price", "refund_status", "remote_id", "retail_currency", "retail_price", "scan_status", "service_id", "shipment_status", "shipping_label_number", "to_address", "tracking_code", "tracking_url", "updated_at", "voided_at", "zone") SELECT "carrier_account_id", "carrier_correction", "carrier_id", "carrier_integration_id", "carrier_integration_name", "carrier_integration_type", "carrier_name", "created_at", "currency", "delivery_date", "delivery_date_guaranteed", "delivery_days", "formatted_service", "from_address", "fulfiller_team_id", "gaylord_id", "id", "label_url", "label_with_packing_slip_url", "list_currency", "list_rate", "merchant_team_id", "original_label_url", "package_id", "price", "refund_status", "remote_id", "retail_currency", "retail_price", "scan_status", "service_id", "shipment_status", "shipping_label_number", "to_address", "tracking_code", "tracking_url", "updated_at", "voided_at", "zone" FROM "shipping_labels";
DROP TABLE "shipping_labels";
ALTER TABLE "new_shipping_labels" RENAME TO "shipping_labels";
CREATE UNIQUE INDEX "shipping_labels_package_id_key" ON "shipping_labels"("package_id");
CREATE INDEX "shipping_labels_fulfiller_team_id_carrier_id_created_at_idx" ON "shipping_labels"("fulfiller_team_id", "carrier_id", "created_at");
CREATE INDEX "shipping_labels_fulfiller_team_id_tracking_code_idx" ON "shipping_labels"("fulfiller_team_id", "tracking_code");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "carrier_invoice_imports_team_id_created_at_idx" ON "carrier_invoice_imports"("team_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "carrier_invoice_imports_team_id_content_hash_key" ON "carrier_invoice_imports"("team_id", "content_hash");
