// Starts N separate Node processes at once, each doing what a first `fos serve` does before it
// listens: migrate(url), then bootstrapIfEmpty. The source is bundled with esbuild into .tmp/
// (packages stay external), so this needs no prior `npm run build`. The processes meet at a
// barrier after migrating, then bootstrap together. Used by the bootstrap race
// tests on SQLite (test/api/keys-bootstrap.test.ts) and PostgreSQL (test/pg/bootstrap.pg.test.ts).

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packageRoot } from '../../src/db/migrate.js';

export type BootOutcome = { applied: string[]; bootstrap: { teamId: string; keyId: string; token: string } | null } | { error: string };

export async function migrateAndBootstrapInProcesses(url: string, n: number): Promise<BootOutcome[]> {
  const root = packageRoot();
  const dir = path.join(root, '.tmp', `boot-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  const entry = path.join(dir, 'entry.ts');
  const outfile = path.join(dir, 'boot.mjs');
  const src = (p: string) => JSON.stringify(path.join(root, 'src', p));
  await writeFile(
    entry,
    `
    import { createDb } from ${src('db/client.ts')};
    import { migrate } from ${src('db/migrate.ts')};
    import { bootstrapIfEmpty } from ${src('domain/bootstrap.ts')};
    import { readdirSync, writeFileSync } from 'node:fs';
    const [url, barrier, n] = process.argv.slice(2);
    try {
      const { applied } = await migrate(url);
      const db = await createDb(url);
      try {
        // Barrier: bootstrap only once every process has migrated and connected, so they race.
        writeFileSync(barrier + '/ready-' + process.pid, '');
        const deadline = Date.now() + 60_000;
        while (readdirSync(barrier).filter((f) => f.startsWith('ready-')).length < Number(n) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 5));
        }
        const b = await bootstrapIfEmpty(db);
        console.log(JSON.stringify({ applied, bootstrap: b && { teamId: b.teamId, keyId: b.keyId, token: b.token } }));
      } finally {
        await db.close();
      }
    } catch (e) {
      console.log(JSON.stringify({ error: String((e && e.stack) || e) }));
    }
  `,
  );
  const { build } = await import('esbuild');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'error' });
  try {
    return await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<BootOutcome>((resolve, reject) =>
            execFile(process.execPath, [outfile, url, dir, String(n)], { cwd: root, timeout: 120_000 }, (err, stdout, stderr) => {
              if (err) return reject(new Error(`boot process failed: ${err.message}\n${stderr}`));
              resolve(JSON.parse(stdout.trim().split('\n').at(-1)!));
            }),
          ),
      ),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
