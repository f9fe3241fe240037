-- CreateTable
CREATE TABLE "automation_rule_versions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "change" TEXT NOT NULL,
    "key_id" TEXT,
    "key_name" TEXT,
    "before" JSONB,
    "after" JSONB,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- AlterTable: columns added in place (a redefinition of "orders" would drop the hand-made
-- search triggers and indexes of earlier migrations: order_search)
ALTER TABLE "orders" ADD COLUMN "routed_warehouse_id" TEXT;
ALTER TABLE "orders" ADD COLUMN "routed_warehouse_only" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "automation_rule_versions_team_id_rule_id_created_at_id_idx" ON "automation_rule_versions"("team_id", "rule_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "automation_rule_versions_rule_id_version_change_key" ON "automation_rule_versions"("rule_id", "version", "change");
