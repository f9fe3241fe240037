-- CreateTable
CREATE TABLE "order_tags" (
    "order_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "fulfiller_team_id" TEXT NOT NULL,

    CONSTRAINT "order_tags_pkey" PRIMARY KEY ("order_id","tag")
);

-- CreateIndex
CREATE INDEX "order_tags_fulfiller_team_id_tag_order_id_idx" ON "order_tags"("fulfiller_team_id", "tag", "order_id");

-- AddForeignKey
ALTER TABLE "order_tags" ADD CONSTRAINT "order_tags_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Back-fill: one row per distinct string tag of every existing order.
INSERT INTO "order_tags" ("order_id", "tag", "fulfiller_team_id")
SELECT o."id", e #>> '{}', o."fulfiller_team_id"
FROM "orders" o
CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(o."tags") = 'array' THEN o."tags" ELSE '[]'::jsonb END) AS e
WHERE jsonb_typeof(e) = 'string'
ON CONFLICT DO NOTHING;
