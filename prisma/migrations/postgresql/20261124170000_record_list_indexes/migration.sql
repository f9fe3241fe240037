-- DropIndex
DROP INDEX "packages_fulfiller_team_id_created_at_idx";

-- DropIndex
DROP INDEX "packages_fulfiller_team_id_status_created_at_idx";

-- DropIndex
DROP INDEX "packages_scan_form_id_idx";

-- DropIndex
DROP INDEX "charges_fulfiller_team_id_created_at_idx";

-- DropIndex
DROP INDEX "charges_fulfiller_team_id_category_created_at_idx";

-- DropIndex
DROP INDEX "charges_merchant_team_id_created_at_idx";

-- DropIndex
DROP INDEX "files_team_id_created_at_idx";

-- DropIndex
DROP INDEX "files_team_id_updated_at_idx";

-- DropIndex
DROP INDEX "files_team_id_name_idx";

-- DropIndex
DROP INDEX "files_team_id_size_idx";

-- CreateIndex
CREATE INDEX "packages_fulfiller_team_id_created_at_id_idx" ON "packages"("fulfiller_team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "packages_fulfiller_team_id_status_created_at_id_idx" ON "packages"("fulfiller_team_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "packages_scan_form_id_created_at_id_idx" ON "packages"("scan_form_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "charges_fulfiller_team_id_created_at_id_idx" ON "charges"("fulfiller_team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "charges_fulfiller_team_id_category_created_at_id_idx" ON "charges"("fulfiller_team_id", "category", "created_at", "id");

-- CreateIndex
CREATE INDEX "charges_fulfiller_team_id_merchant_team_id_created_at_id_idx" ON "charges"("fulfiller_team_id", "merchant_team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "files_team_id_created_at_id_idx" ON "files"("team_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "files_team_id_updated_at_id_idx" ON "files"("team_id", "updated_at", "id");

-- CreateIndex
CREATE INDEX "files_team_id_name_id_idx" ON "files"("team_id", "name", "id");

-- CreateIndex
CREATE INDEX "files_team_id_size_id_idx" ON "files"("team_id", "size", "id");

-- CreateIndex
CREATE INDEX "files_team_id_mimetype_created_at_id_idx" ON "files"("team_id", "mimetype", "created_at", "id");

-- CreateIndex
CREATE INDEX "files_team_id_mimetype_updated_at_id_idx" ON "files"("team_id", "mimetype", "updated_at", "id");

-- CreateIndex
CREATE INDEX "files_team_id_mimetype_name_id_idx" ON "files"("team_id", "mimetype", "name", "id");

-- CreateIndex
CREATE INDEX "files_team_id_mimetype_size_id_idx" ON "files"("team_id", "mimetype", "size", "id");

-- File search on PostgreSQL (written by hand): a pg_trgm GIN index serves Prisma's
-- LIKE '%term%' on files.search_text (pg_trgm was created in public by order_list_indexes).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE INDEX "files_search_text_trgm_idx" ON "files" USING gin ("search_text" public.gin_trgm_ops);
