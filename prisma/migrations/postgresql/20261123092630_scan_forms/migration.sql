-- CreateTable
CREATE TABLE "scan_forms" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "carrier_id" TEXT NOT NULL,
    "carrier_name" TEXT,
    "form_date" TEXT NOT NULL,
    "package_count" INTEGER NOT NULL,
    "manifest_url" TEXT,
    "created_by_key_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "scan_forms_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "scan_forms_team_id_created_at_idx" ON "scan_forms"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "packages_scan_form_id_idx" ON "packages"("scan_form_id");

-- CreateIndex
CREATE INDEX "shipping_labels_fulfiller_team_id_carrier_id_created_at_idx" ON "shipping_labels"("fulfiller_team_id", "carrier_id", "created_at");
