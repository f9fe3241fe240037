-- A fulfillment's charges are one per category by their billing key ("<EVENT>:fulfillment:<id>",
-- unique) instead of a unique index of their own: the JSON rate card's SHIPPING charges, the only
-- ones written without a key, get theirs (the same key the versioned card gives a SHIPPING charge).
UPDATE "charges" SET "billing_key" = 'SHIPPING:fulfillment:' || "fulfillment_id"
WHERE "billing_key" IS NULL AND "fulfillment_id" IS NOT NULL AND "category" = 'SHIPPING';

-- DropIndex
DROP INDEX "charges_fulfillment_id_category_key";
