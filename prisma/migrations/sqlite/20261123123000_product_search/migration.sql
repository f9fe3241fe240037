-- Product search on SQLite: an FTS5 trigram index of products.search_text (ops: name, SKU,
-- barcode) and name_sku_search_text (merchant: name, SKU), the same shape as order_search
-- (migration order_list_indexes): rows keyed by product_search_ids.id, an INTEGER PRIMARY KEY
-- that VACUUM never renumbers, kept in step by triggers (test/unit/order-search.test.ts checks
-- they exist after every migration).
CREATE TABLE "product_search_ids" ("id" INTEGER PRIMARY KEY, "product_id" TEXT NOT NULL UNIQUE);
CREATE VIRTUAL TABLE "product_search" USING fts5("search_text", "name_sku_search_text", tokenize = 'trigram');
INSERT INTO "product_search_ids" ("product_id") SELECT "id" FROM "products";
INSERT INTO "product_search" ("rowid", "search_text", "name_sku_search_text")
  SELECT s."id", p."search_text", p."name_sku_search_text" FROM "product_search_ids" s JOIN "products" p ON p."id" = s."product_id";
CREATE TRIGGER "products_search_insert" AFTER INSERT ON "products" BEGIN
  INSERT INTO "product_search_ids" ("product_id") VALUES (new."id");
  INSERT INTO "product_search" ("rowid", "search_text", "name_sku_search_text")
    VALUES ((SELECT "id" FROM "product_search_ids" WHERE "product_id" = new."id"), new."search_text", new."name_sku_search_text");
END;
CREATE TRIGGER "products_search_update" AFTER UPDATE OF "search_text", "name_sku_search_text" ON "products"
  WHEN old."search_text" IS NOT new."search_text" OR old."name_sku_search_text" IS NOT new."name_sku_search_text" BEGIN
  DELETE FROM "product_search" WHERE "rowid" = (SELECT "id" FROM "product_search_ids" WHERE "product_id" = new."id");
  INSERT INTO "product_search" ("rowid", "search_text", "name_sku_search_text")
    VALUES ((SELECT "id" FROM "product_search_ids" WHERE "product_id" = new."id"), new."search_text", new."name_sku_search_text");
END;
CREATE TRIGGER "products_search_delete" AFTER DELETE ON "products" BEGIN
  DELETE FROM "product_search" WHERE "rowid" = (SELECT "id" FROM "product_search_ids" WHERE "product_id" = old."id");
  DELETE FROM "product_search_ids" WHERE "product_id" = old."id";
END;
