import path from 'node:path';
import { describe, it } from 'vitest';
import { importSurvivesCrash } from '../helpers/import-crash.js';
import { useServeSandbox } from '../helpers/serve-process.js';

// Issue 23 item 3 on SQLite: kill -9 of `fos serve` mid-import, the import run again, every row
// applied exactly once (the scenario: test/helpers/import-crash.ts; PostgreSQL: test/pg).

const box = useServeSandbox();

describe('an import survives a crash of the server', () => {
  it(
    'kill -9 mid-import, run it again: every row applied exactly once',
    () => importSurvivesCrash(box, path.join(box.dir, 'crash.db')),
    240_000,
  );
});
