-- AlterTable
ALTER TABLE "packages" ADD COLUMN "label_format" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_warehouses" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "address1" TEXT,
    "city" TEXT,
    "state" TEXT,
    "zip" TEXT,
    "country" TEXT,
    "label_format" TEXT NOT NULL DEFAULT 'PDF',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "warehouses_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_warehouses" ("address1", "city", "country", "created_at", "id", "name", "state", "team_id", "updated_at", "zip") SELECT "address1", "city", "country", "created_at", "id", "name", "state", "team_id", "updated_at", "zip" FROM "warehouses";
DROP TABLE "warehouses";
ALTER TABLE "new_warehouses" RENAME TO "warehouses";
CREATE INDEX "warehouses_team_id_idx" ON "warehouses"("team_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
