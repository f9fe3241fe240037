import { describe, expect, it } from 'vitest';
import { DatabaseNewer, pendingMigrations, type Migration } from '../../src/db/migrate.js';
import { describeMigration } from '../../src/db/migrate-plan.js';
import { backupName } from '../../src/server/backup/schedule.js';
import { parseDuration } from '../../src/server/backup/options.js';

// The pure parts of `fos db migrate --dry-run`, the newer-database refusal and the backup schedule
// (issue 42 items 3 and 5); the commands themselves: test/e2e/db-backup.test.ts, db-upgrade.test.ts.

const m = (name: string): Migration => ({ name, sql: '', checksum: name });
const row = (name: string, finished = true) => ({
  migration_name: name,
  checksum: name,
  finished_at: finished ? 1 : null,
  rolled_back_at: null,
});

describe('pendingMigrations', () => {
  it('lists what is missing, in order', () => {
    expect(pendingMigrations([m('1_a'), m('2_b'), m('3_c')], [row('1_a')]).map((x) => x.name)).toEqual(['2_b', '3_c']);
  });

  it('refuses a database holding a migration this build does not know, naming it', () => {
    const call = () => pendingMigrations([m('1_a')], [row('1_a'), row('9_from_the_future')]);
    expect(call).toThrow(DatabaseNewer);
    expect(call).toThrow(/migration 9_from_the_future is applied but unknown to fos .* \(its newest is 1_a\)/);
  });

  it('ignores a newer migration that was rolled back', () => {
    const rolledBack = { ...row('9_gone'), rolled_back_at: 1 };
    expect(pendingMigrations([m('1_a')], [row('1_a'), rolledBack])).toEqual([]);
  });
});

describe('describeMigration', () => {
  it('names each schema change and row rewrite once', () => {
    const sql = `-- CreateTable
CREATE TABLE "order_tags" ("id" TEXT NOT NULL PRIMARY KEY);
CREATE INDEX "order_tags_tag_idx" ON "order_tags"("tag");
CREATE UNIQUE INDEX IF NOT EXISTS "x_key" ON "x"("a");
INSERT INTO "new_t" SELECT * FROM "t";
UPDATE "orders" SET "n" = 0;
UPDATE "orders" SET "m" = 1;
ALTER TABLE "new_t" RENAME TO "t";
DROP TABLE "t_old";`;
    expect(describeMigration(sql)).toEqual([
      'create table "order_tags"',
      'create index "order_tags_tag_idx" on "order_tags"',
      'create unique index "x_key" on "x"',
      'insert into "new_t"',
      'rewrite rows of "orders"',
      'alter table "new_t"',
      'drop table "t_old"',
    ]);
  });
});

describe('backup schedule', () => {
  it('takes durations in s, m, h, d and refuses anything else', () => {
    expect(parseDuration('6h', '--backup-every')).toBe(6 * 3_600_000);
    expect(parseDuration('90s', '--backup-every')).toBe(90_000);
    expect(parseDuration('1d', '--backup-every')).toBe(86_400_000);
    for (const bad of ['6', 'h', '0h', '1.5h', '-1h', 'often'])
      expect(() => parseDuration(bad, '--backup-every')).toThrow(/takes a duration/);
  });

  it('names backups so that name order is time order', () => {
    const a = backupName(new Date('2026-11-28T09:59:59.999Z'));
    const b = backupName(new Date('2026-11-28T10:00:00.000Z'));
    expect(a).toBe('fos-backup-20261128T095959.999Z.tar.gz');
    expect([b, a].sort()).toEqual([a, b]);
  });
});
