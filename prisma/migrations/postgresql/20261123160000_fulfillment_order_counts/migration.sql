-- How many fulfillment orders each team has per warehouse and status, so the list's `total` sums
-- a few rows instead of counting every fulfillment order of the team (about 100 ms at a million).
-- Updating one counter row per status from every writer would serialize concurrent fulfilments
-- (and could deadlock transactions that move several orders), so the trigger only appends +1/-1
-- deltas: a reader sums counts and pending deltas in one statement (one snapshot), and each
-- server folds the deltas into the counts every few seconds in a single statement
-- (src/domain/fulfillment/counts.ts).
CREATE TABLE "fulfillment_order_counts" (
    "fulfiller_team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "n" BIGINT NOT NULL,
    PRIMARY KEY ("fulfiller_team_id", "warehouse_id", "status")
);

CREATE TABLE "fulfillment_order_count_deltas" (
    "id" BIGSERIAL PRIMARY KEY,
    "fulfiller_team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "n" INTEGER NOT NULL
);
CREATE INDEX "fulfillment_order_count_deltas_team_idx" ON "fulfillment_order_count_deltas" ("fulfiller_team_id");

INSERT INTO "fulfillment_order_counts" ("fulfiller_team_id", "warehouse_id", "status", "n")
SELECT "fulfiller_team_id", "warehouse_id", "status", COUNT(*) FROM "fulfillment_orders" GROUP BY 1, 2, 3;

-- search_path is fixed at creation, so the trigger finds the tables of its own schema whatever
-- the writing session's search_path is.
CREATE FUNCTION "fulfillment_order_count_delta"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO "fulfillment_order_count_deltas" ("fulfiller_team_id", "warehouse_id", "status", "n")
    VALUES (OLD."fulfiller_team_id", OLD."warehouse_id", OLD."status", -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "fulfillment_order_count_deltas" ("fulfiller_team_id", "warehouse_id", "status", "n")
    VALUES (NEW."fulfiller_team_id", NEW."warehouse_id", NEW."status", 1);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "fulfillment_order_counts_insert_delete" AFTER INSERT OR DELETE ON "fulfillment_orders"
FOR EACH ROW EXECUTE FUNCTION "fulfillment_order_count_delta"();

CREATE TRIGGER "fulfillment_order_counts_update" AFTER UPDATE OF "status", "warehouse_id", "fulfiller_team_id" ON "fulfillment_orders"
FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."warehouse_id" IS DISTINCT FROM NEW."warehouse_id"
  OR OLD."fulfiller_team_id" IS DISTINCT FROM NEW."fulfiller_team_id")
EXECUTE FUNCTION "fulfillment_order_count_delta"();
