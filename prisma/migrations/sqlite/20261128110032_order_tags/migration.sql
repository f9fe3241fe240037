-- CreateTable
CREATE TABLE "order_tags" (
    "order_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,

    PRIMARY KEY ("order_id", "tag"),
    CONSTRAINT "order_tags_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "order_tags_fulfiller_team_id_tag_order_id_idx" ON "order_tags"("fulfiller_team_id", "tag", "order_id");

-- Back-fill: one row per distinct string tag of every existing order.
INSERT OR IGNORE INTO "order_tags" ("order_id", "tag", "fulfiller_team_id")
SELECT o."id", j."value", o."fulfiller_team_id"
FROM "orders" o, json_each(CASE WHEN json_valid(o."tags") AND json_type(o."tags") = 'array' THEN o."tags" ELSE '[]' END) j
WHERE j."type" = 'text';
