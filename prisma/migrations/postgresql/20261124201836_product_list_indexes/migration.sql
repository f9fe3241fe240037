-- DropIndex
DROP INDEX "products_team_id_created_at_idx";

-- DropIndex
DROP INDEX "products_team_id_updated_at_idx";

-- DropIndex
DROP INDEX "products_team_id_type_idx";

-- CreateIndex
CREATE INDEX "products_team_id_created_at_id_idx" ON "products"("team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "products_team_id_updated_at_id_idx" ON "products"("team_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "products_team_id_type_created_at_id_idx" ON "products"("team_id", "type", "created_at", "id");
