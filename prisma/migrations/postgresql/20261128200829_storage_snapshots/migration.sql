-- AlterTable
ALTER TABLE "warehouses" ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "storage_runs" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "time_zone" TEXT NOT NULL,
    "cutoff_at" TIMESTAMP(3) NOT NULL,
    "source" TEXT NOT NULL,
    "snapshot_count" INTEGER NOT NULL DEFAULT 0,
    "charge_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "storage_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "storage_snapshots" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "merchant_team_id" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "location_type_id" TEXT NOT NULL DEFAULT '',
    "locations" INTEGER NOT NULL,
    "units" INTEGER NOT NULL,
    "run_id" TEXT NOT NULL,
    "charge_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "storage_snapshots_pkey" PRIMARY KEY ("id")
);

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
CREATE UNIQUE INDEX "storage_snapshots_warehouse_id_merchant_team_id_date_locati_key" ON "storage_snapshots"("warehouse_id", "merchant_team_id", "date", "location_type_id");
