-- AlterTable
ALTER TABLE "fulfillment_delegations" ADD COLUMN "rate_card_id" TEXT;

-- AlterTable
ALTER TABLE "charges" ADD COLUMN "billing_key" TEXT;

-- CreateTable
CREATE TABLE "rate_cards" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "fulfiller_team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "rate_card_versions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rate_card_id" TEXT NOT NULL,
    "semantic_version" TEXT NOT NULL,
    "effective_at" DATETIME NOT NULL,
    "currency" TEXT NOT NULL,
    "fees" JSONB NOT NULL,
    "note" TEXT,
    "content_hash" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "rate_cards_fulfiller_team_id_created_at_id_idx" ON "rate_cards"("fulfiller_team_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "rate_cards_fulfiller_team_id_name_key" ON "rate_cards"("fulfiller_team_id", "name");

-- CreateIndex
CREATE INDEX "rate_card_versions_rate_card_id_effective_at_created_at_idx" ON "rate_card_versions"("rate_card_id", "effective_at", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "rate_card_versions_rate_card_id_semantic_version_key" ON "rate_card_versions"("rate_card_id", "semantic_version");

-- CreateIndex
CREATE UNIQUE INDEX "charges_billing_key_key" ON "charges"("billing_key");
