-- CreateTable
CREATE TABLE "storage_runs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "time_zone" TEXT NOT NULL,
    "cutoff_at" DATETIME NOT NULL,
    "source" TEXT NOT NULL,
    "snapshot_count" INTEGER NOT NULL DEFAULT 0,
    "charge_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "storage_snapshots" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "location_type_id" TEXT NOT NULL DEFAULT '',
    "locations" INTEGER NOT NULL,
    "units" INTEGER NOT NULL,
    "run_id" TEXT NOT NULL,
    "charge_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_warehouses" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "address1" TEXT,
    "city" TEXT,
    "state" TEXT,
    "zip" TEXT,
    "country" TEXT,
    "label_format" TEXT NOT NULL DEFAULT 'PDF',
    "time_zone" TEXT NOT NULL DEFAULT 'UTC',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "warehouses_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_warehouses" ("address1", "city", "country", "created_at", "id", "label_format", "name", "state", "team_id", "updated_at", "zip") SELECT "address1", "city", "country", "created_at", "id", "label_format", "name", "state", "team_id", "updated_at", "zip" FROM "warehouses";
DROP TABLE "warehouses";
ALTER TABLE "new_warehouses" RENAME TO "warehouses";
CREATE INDEX "warehouses_team_id_idx" ON "warehouses"("team_id");
CREATE INDEX "warehouses_team_id_name_id_idx" ON "warehouses"("team_id", "name", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "storage_runs_team_id_date_id_idx" ON "storage_runs"("team_id", "date", "id");

-- CreateIndex
CREATE UNIQUE INDEX "storage_runs_warehouse_id_date_key" ON "storage_runs"("warehouse_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "storage_snapshots_charge_id_key" ON "storage_snapshots"("charge_id");

-- CreateIndex
CREATE INDEX "storage_snapshots_team_id_date_id_idx" ON "storage_snapshots"("team_id", "date", "id");

-- CreateIndex
CREATE INDEX "storage_snapshots_team_id_merchant_team_id_date_id_idx" ON "storage_snapshots"("team_id", "merchant_team_id", "date", "id");

-- CreateIndex
CREATE INDEX "storage_snapshots_run_id_idx" ON "storage_snapshots"("run_id");

-- CreateIndex
CREATE UNIQUE INDEX "storage_snapshots_warehouse_id_merchant_team_id_date_location_type_id_key" ON "storage_snapshots"("warehouse_id", "merchant_team_id", "date", "location_type_id");
