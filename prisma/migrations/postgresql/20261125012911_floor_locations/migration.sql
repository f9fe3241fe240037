-- AlterEnum
ALTER TYPE "InventoryMovementKind" ADD VALUE 'MOVED';

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "lot_tracked" BOOLEAN;

-- AlterTable
ALTER TABLE "inventory_movements" ADD COLUMN     "location_id" TEXT,
ADD COLUMN     "location_stock_id" TEXT;

-- CreateTable
CREATE TABLE "locations" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "barcode" TEXT,
    "type" TEXT NOT NULL DEFAULT 'PICKABLE',
    "location_type_id" TEXT,
    "pick_sequence" INTEGER NOT NULL DEFAULT 0,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "locations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "location_stock" (
    "id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "location_id" TEXT NOT NULL,
    "lot_code" TEXT NOT NULL DEFAULT '',
    "expiration_date" TEXT,
    "on_hand" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "location_stock_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "locations_team_id_warehouse_id_pick_sequence_name_idx" ON "locations"("team_id", "warehouse_id", "pick_sequence", "name");

-- CreateIndex
CREATE INDEX "locations_warehouse_id_barcode_idx" ON "locations"("warehouse_id", "barcode");

-- CreateIndex
CREATE UNIQUE INDEX "locations_warehouse_id_name_key" ON "locations"("warehouse_id", "name");

-- CreateIndex
CREATE INDEX "location_stock_product_id_warehouse_id_idx" ON "location_stock"("product_id", "warehouse_id");

-- CreateIndex
CREATE INDEX "location_stock_location_id_idx" ON "location_stock"("location_id");

-- CreateIndex
CREATE INDEX "location_stock_warehouse_id_expiration_date_idx" ON "location_stock"("warehouse_id", "expiration_date");

-- CreateIndex
CREATE UNIQUE INDEX "location_stock_product_id_location_id_lot_code_key" ON "location_stock"("product_id", "location_id", "lot_code");

-- CreateIndex
CREATE INDEX "inventory_movements_location_stock_id_idx" ON "inventory_movements"("location_stock_id");

-- CreateIndex
CREATE INDEX "inventory_movements_location_id_created_at_idx" ON "inventory_movements"("location_id", "created_at");

-- Data (issue 28): every warehouse gets its default location (id 'default-' || warehouse id), the
-- on_hand of every level sits there (one stock row per level, no lot, id 'default-' || level id),
-- and the level's past on_hand movements name that row, so every bin equals the sum of its
-- movements from the start and every warehouse level is unchanged.
INSERT INTO "locations" ("id", "team_id", "warehouse_id", "name", "type", "pick_sequence", "active", "is_default", "created_at", "updated_at")
SELECT 'default-' || "id", "team_id", "id", 'DEFAULT', 'PICKABLE', 0, true, true, "created_at", "updated_at" FROM "warehouses";

INSERT INTO "location_stock" ("id", "product_id", "warehouse_id", "location_id", "lot_code", "on_hand", "created_at", "updated_at")
SELECT 'default-' || l."id", l."product_id", l."warehouse_id", 'default-' || l."warehouse_id", '', l."on_hand", l."created_at", l."updated_at"
FROM "inventory_levels" l WHERE l."on_hand" >= 0 AND EXISTS (SELECT 1 FROM "warehouses" w WHERE w."id" = l."warehouse_id");

UPDATE "inventory_movements" SET "location_id" = 'default-' || "warehouse_id",
  "location_stock_id" = (SELECT 'default-' || l."id" FROM "inventory_levels" l
    WHERE l."product_id" = "inventory_movements"."product_id" AND l."warehouse_id" = "inventory_movements"."warehouse_id")
WHERE "bucket" = 'on_hand' AND EXISTS (SELECT 1 FROM "inventory_levels" l
    WHERE l."product_id" = "inventory_movements"."product_id" AND l."warehouse_id" = "inventory_movements"."warehouse_id" AND l."on_hand" >= 0
      AND EXISTS (SELECT 1 FROM "warehouses" w WHERE w."id" = l."warehouse_id"));
