-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "claim_id" TEXT;

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "claim_id" TEXT;

-- CreateIndex
CREATE INDEX "outbox_events_claim_id_idx" ON "outbox_events"("claim_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_claim_id_idx" ON "webhook_deliveries"("claim_id");
