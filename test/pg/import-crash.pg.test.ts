import { afterAll, beforeAll, describe, it } from 'vitest';
import { freshPostgresUrl } from '../helpers/db.js';
import { importSurvivesCrash } from '../helpers/import-crash.js';
import { useServeSandbox } from '../helpers/serve-process.js';

// Issue 23 item 3 on PostgreSQL: kill -9 of `fos serve` mid-import, the import run again on
// another `fos serve` of the same database, every row applied exactly once
// (the scenario: test/helpers/import-crash.ts).

const box = useServeSandbox();
let fresh: Awaited<ReturnType<typeof freshPostgresUrl>>;
beforeAll(async () => {
  fresh = await freshPostgresUrl();
});
afterAll(async () => {
  for (const c of box.running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await fresh?.drop();
});

describe('an import survives a crash of the server (PostgreSQL)', () => {
  it('kill -9 mid-import, run it again: every row applied exactly once', () => importSurvivesCrash(box, fresh.url), 240_000);
});
