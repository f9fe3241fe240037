import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';
import { migrateCases } from '../helpers/migrate-cases.js';

migrateCases('sqlite');

test('nothing under src/ loads the schema engine at run time (only scripts/prisma-migrations.mjs, in development)', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) =>
      statSync(path.join(dir, n)).isDirectory() ? (n === 'generated' ? [] : files(path.join(dir, n))) : [path.join(dir, n)],
    );
  const users = files(path.join(packageRoot(), 'src')).filter((f) => readFileSync(f, 'utf8').includes('schema-engine-wasm'));
  expect(users).toEqual([]);
});
