-- CreateIndex
CREATE INDEX "outbox_events_team_id_id_idx" ON "outbox_events"("team_id", "id");
