-- Product search on PostgreSQL: pg_trgm GIN indexes serve Prisma's LIKE '%term%' on the ops and
-- merchant search columns (pg_trgm was created in public by migration order_list_indexes).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE INDEX "products_search_text_trgm_idx" ON "products" USING gin ("search_text" public.gin_trgm_ops);
CREATE INDEX "products_name_sku_search_text_trgm_idx" ON "products" USING gin ("name_sku_search_text" public.gin_trgm_ops);
