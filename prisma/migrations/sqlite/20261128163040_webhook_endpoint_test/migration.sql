-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_webhook_endpoints" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "team_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" JSONB NOT NULL,
    "secret" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "test" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_webhook_endpoints" ("active", "created_at", "description", "events", "id", "secret", "team_id", "updated_at", "url") SELECT "active", "created_at", "description", "events", "id", "secret", "team_id", "updated_at", "url" FROM "webhook_endpoints";
DROP TABLE "webhook_endpoints";
ALTER TABLE "new_webhook_endpoints" RENAME TO "webhook_endpoints";
CREATE INDEX "webhook_endpoints_team_id_idx" ON "webhook_endpoints"("team_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
