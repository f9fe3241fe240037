-- DropIndex
DROP INDEX "outbox_events_claim_id_idx";

-- DropIndex
DROP INDEX "outbox_events_team_id_created_at_idx";
