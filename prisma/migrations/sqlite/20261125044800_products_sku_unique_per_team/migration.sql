-- SKUs are unique per owning team, ignoring case (issue 25; src/domain/products/sku.ts).
-- An expression index, which the Prisma model cannot express, so this migration is written by hand
-- (the model snapshot is unchanged). Existing duplicates would make it fail: src/db/migration-checks.ts
-- looks for them first and refuses with the list (resolve them with `fos admin products dedupe --merge`).
CREATE UNIQUE INDEX "products_team_id_lower_sku_key" ON "products"("team_id", lower("sku"));
