-- How many fulfillment orders each team has per warehouse and status, kept exact by triggers, so
-- the list's `total` sums a few rows instead of counting every fulfillment order of the team
-- (about 100 ms at a million). SQLite has one writer at a time, so the triggers update the counts
-- directly (PostgreSQL appends deltas instead, see its migration).
CREATE TABLE "fulfillment_order_counts" (
    "fulfiller_team_id" TEXT NOT NULL,
    "warehouse_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    PRIMARY KEY ("fulfiller_team_id", "warehouse_id", "status")
) WITHOUT ROWID;

INSERT INTO "fulfillment_order_counts" ("fulfiller_team_id", "warehouse_id", "status", "n")
SELECT "fulfiller_team_id", "warehouse_id", "status", COUNT(*) FROM "fulfillment_orders" GROUP BY 1, 2, 3;

CREATE TRIGGER "fulfillment_order_counts_insert" AFTER INSERT ON "fulfillment_orders" BEGIN
  INSERT INTO "fulfillment_order_counts" ("fulfiller_team_id", "warehouse_id", "status", "n")
  VALUES (NEW."fulfiller_team_id", NEW."warehouse_id", NEW."status", 1)
  ON CONFLICT ("fulfiller_team_id", "warehouse_id", "status") DO UPDATE SET "n" = "n" + 1;
END;

CREATE TRIGGER "fulfillment_order_counts_delete" AFTER DELETE ON "fulfillment_orders" BEGIN
  UPDATE "fulfillment_order_counts" SET "n" = "n" - 1
  WHERE "fulfiller_team_id" = OLD."fulfiller_team_id" AND "warehouse_id" = OLD."warehouse_id" AND "status" = OLD."status";
END;

CREATE TRIGGER "fulfillment_order_counts_update" AFTER UPDATE OF "status", "warehouse_id", "fulfiller_team_id" ON "fulfillment_orders"
WHEN OLD."status" IS NOT NEW."status" OR OLD."warehouse_id" IS NOT NEW."warehouse_id" OR OLD."fulfiller_team_id" IS NOT NEW."fulfiller_team_id"
BEGIN
  UPDATE "fulfillment_order_counts" SET "n" = "n" - 1
  WHERE "fulfiller_team_id" = OLD."fulfiller_team_id" AND "warehouse_id" = OLD."warehouse_id" AND "status" = OLD."status";
  INSERT INTO "fulfillment_order_counts" ("fulfiller_team_id", "warehouse_id", "status", "n")
  VALUES (NEW."fulfiller_team_id", NEW."warehouse_id", NEW."status", 1)
  ON CONFLICT ("fulfiller_team_id", "warehouse_id", "status") DO UPDATE SET "n" = "n" + 1;
END;
