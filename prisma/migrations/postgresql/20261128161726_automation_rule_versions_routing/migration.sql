-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "routed_warehouse_id" TEXT,
ADD COLUMN     "routed_warehouse_only" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "automation_rule_versions" (
    "id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "change" TEXT NOT NULL,
    "key_id" TEXT,
    "key_name" TEXT,
    "before" JSONB,
    "after" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "automation_rule_versions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "automation_rule_versions_team_id_rule_id_created_at_id_idx" ON "automation_rule_versions"("team_id", "rule_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "automation_rule_versions_rule_id_version_change_key" ON "automation_rule_versions"("rule_id", "version", "change");
