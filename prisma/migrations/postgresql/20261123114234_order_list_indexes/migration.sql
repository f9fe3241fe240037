-- DropIndex
DROP INDEX "orders_fulfiller_team_id_created_at_idx";

-- DropIndex
DROP INDEX "orders_fulfiller_team_id_updated_at_idx";

-- DropIndex
DROP INDEX "orders_fulfiller_team_id_status_idx";

-- DropIndex
DROP INDEX "orders_fulfiller_team_id_payment_status_idx";

-- DropIndex
DROP INDEX "orders_fulfiller_team_id_fulfillment_status_idx";

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "order_number_class" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "order_sort_key" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_created_at_id_idx" ON "orders"("fulfiller_team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_updated_at_id_idx" ON "orders"("fulfiller_team_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_status_created_at_id_idx" ON "orders"("fulfiller_team_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_payment_status_created_at_id_idx" ON "orders"("fulfiller_team_id", "payment_status", "created_at", "id");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_fulfillment_status_created_at_id_idx" ON "orders"("fulfiller_team_id", "fulfillment_status", "created_at", "id");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_order_number_class_order_sort_key__idx" ON "orders"("fulfiller_team_id", "order_number_class", "order_sort_key", "id");

-- CreateIndex
CREATE INDEX "orders_fulfiller_team_id_order_number_desc_idx" ON "orders"("fulfiller_team_id", "order_number_class", "order_sort_key" DESC, "id" DESC);

-- Backfill the order-number sort columns (numberColumns() maintains them from now on).
UPDATE "orders" SET
  "order_number_class" = CASE WHEN "order_seq" IS NULL THEN 1 ELSE 0 END,
  "order_sort_key" = CASE WHEN "order_seq" IS NULL THEN "order_number_key" ELSE lpad("order_seq"::text, 10, '0') END;

-- Order search on PostgreSQL: a pg_trgm GIN index serves search_text LIKE '%term%', and a
-- text_pattern_ops index serves the order-number prefix (order_number_key LIKE 'term%') whatever
-- the database's collation. pg_trgm lives in public, so schemas of one database share it.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE INDEX "orders_search_text_trgm_idx" ON "orders" USING gin ("search_text" public.gin_trgm_ops);
CREATE INDEX "orders_fulfiller_team_id_order_number_key_pattern_idx" ON "orders" ("fulfiller_team_id", "order_number_key" text_pattern_ops);
