-- CreateIndex
CREATE INDEX "warehouses_team_id_name_id_idx" ON "warehouses"("team_id", "name", "id");
