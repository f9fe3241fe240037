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

-- File search on SQLite (written by hand): an FTS5 trigram index of files.search_text (the
-- lower-cased name), the same shape as product_search: rows keyed by file_search_ids.id, an INTEGER
-- PRIMARY KEY that VACUUM never renumbers, kept in step by triggers (test/unit/order-search.test.ts
-- checks they exist after every migration). Names matching a term are an index lookup instead of
-- a LIKE scan of every file (~35-55 ms at 100,000 files for a rare term).
CREATE TABLE "file_search_ids" ("id" INTEGER PRIMARY KEY, "file_id" TEXT NOT NULL UNIQUE);
CREATE VIRTUAL TABLE "file_search" USING fts5("search_text", tokenize = 'trigram');
INSERT INTO "file_search_ids" ("file_id") SELECT "id" FROM "files";
INSERT INTO "file_search" ("rowid", "search_text")
  SELECT s."id", f."search_text" FROM "file_search_ids" s JOIN "files" f ON f."id" = s."file_id";
CREATE TRIGGER "files_search_insert" AFTER INSERT ON "files" BEGIN
  INSERT INTO "file_search_ids" ("file_id") VALUES (new."id");
  INSERT INTO "file_search" ("rowid", "search_text")
    VALUES ((SELECT "id" FROM "file_search_ids" WHERE "file_id" = new."id"), new."search_text");
END;
CREATE TRIGGER "files_search_update" AFTER UPDATE OF "search_text" ON "files"
  WHEN old."search_text" IS NOT new."search_text" BEGIN
  DELETE FROM "file_search" WHERE "rowid" = (SELECT "id" FROM "file_search_ids" WHERE "file_id" = new."id");
  INSERT INTO "file_search" ("rowid", "search_text")
    VALUES ((SELECT "id" FROM "file_search_ids" WHERE "file_id" = new."id"), new."search_text");
END;
CREATE TRIGGER "files_search_delete" AFTER DELETE ON "files" BEGIN
  DELETE FROM "file_search" WHERE "rowid" = (SELECT "id" FROM "file_search_ids" WHERE "file_id" = old."id");
  DELETE FROM "file_search_ids" WHERE "file_id" = old."id";
END;
