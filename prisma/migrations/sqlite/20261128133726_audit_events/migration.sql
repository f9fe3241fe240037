-- CreateTable
CREATE TABLE "audit_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_name" TEXT,
    "user_id" TEXT,
    "ip" TEXT,
    "user_agent" TEXT,
    "action" TEXT NOT NULL,
    "method" TEXT,
    "path" TEXT,
    "target_type" TEXT,
    "target_id" TEXT,
    "target_key" TEXT,
    "changes" JSONB,
    "trace_id" TEXT
);

-- CreateIndex
CREATE INDEX "audit_events_team_id_created_at_id_idx" ON "audit_events"("team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_team_id_actor_id_created_at_id_idx" ON "audit_events"("team_id", "actor_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_team_id_target_type_target_id_created_at_id_idx" ON "audit_events"("team_id", "target_type", "target_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_team_id_action_created_at_id_idx" ON "audit_events"("team_id", "action", "created_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_created_at_idx" ON "audit_events"("created_at");
