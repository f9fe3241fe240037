-- DropIndex
DROP INDEX "webhook_deliveries_claim_id_idx";
