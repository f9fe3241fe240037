// The CLI as people run it: `node bin/fos.js …` as a child process (dist/cli.cjs rebuilt first
// when the CLI sources are newer), and on a pseudo-terminal of a given width through util-linux
// `script` (stty sets the terminal's size: Node reads the width from the terminal, not COLUMNS).

import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin/fos.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : e.name.endsWith('.ts') ? statSync(p).mtimeMs : 0);
  }
  return newest;
}

/** Rebuilds dist/cli.cjs (what bin/fos.js runs client commands from) when src/cli or src/client changed. */
export async function ensureCliBundle(): Promise<void> {
  const bundle = path.join(ROOT, 'dist/cli.cjs');
  const sources = Math.max(newestMtime(path.join(ROOT, 'src/cli')), newestMtime(path.join(ROOT, 'src/client')));
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sources) return;
  await promisify(execFile)(process.execPath, ['scripts/cli-bundle.mjs'], { cwd: ROOT, timeout: 240_000 });
}

export interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

const baseEnv = (env: Record<string, string>) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env });

/** `node bin/fos.js <args>` with pipes (stdout is not a terminal: JSON). */
export function spawnFos(args: string[], env: Record<string, string>, stdin = ''): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: baseEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `node bin/fos.js <args>` on a pseudo-terminal `columns` wide: stdout and stderr both reach the
 * terminal, so `out` is what a person sees (carriage returns removed).
 */
export async function ptyFos(args: string[], env: Record<string, string>, columns = 80): Promise<{ code: number | null; out: string }> {
  const command = `stty cols ${columns} rows 200; ${shQuote(process.execPath)} ${shQuote(BIN)} ${args.map(shQuote).join(' ')}`;
  const r = await new Promise<Spawned>((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...baseEnv(env), FOS_PAGER: 'cat' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
  return { code: r.code, out: r.stdout.replace(/\r/g, '') };
}
