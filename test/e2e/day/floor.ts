// The harness of the scripted day (test/e2e/day-on-the-floor.test.ts, docs/floor.md "A day on the
// floor"): `fos serve` spawned on a temp data dir (SQLite) or a new PostgreSQL database, every step
// run as the lead runs it (`node bin/fos.js …`, JSON on a pipe), the stations (`fos pick`, `fos pack`)
// on a real pseudo-terminal fed scanner lines, and HTTP reads for the checks at the end of the day.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { ptySpawn, type PtyRun } from '../../cli/helpers/pty.js';
import { freshPostgresUrl } from '../../helpers/db.js';
import { fosBin, runFos, spawnServe, type FosRun, type ServeProcess } from '../../helpers/serve-process.js';

export interface Floor {
  db: 'sqlite' | 'postgres';
  server: ServeProcess;
  env: NodeJS.ProcessEnv;
  /** Where the stations' printer (FOS_PRINT_COMMAND) puts labels. */
  printed: string;
  token: string;
  close(): Promise<void>;
}

/** `fos serve --port 0` on a new database; the first start's ADMIN key becomes the `local` profile. */
export async function openFloor(db: 'sqlite' | 'postgres'): Promise<Floor> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-day-'));
  const printed = path.join(dir, 'printed');
  const pg = db === 'postgres' ? await freshPostgresUrl() : undefined;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: path.join(dir, 'home'),
    FOS_CONFIG_DIR: path.join(dir, 'config'),
    FOS_DATA_DIR: path.join(dir, 'data'),
    ...(pg ? { FOS_DB: pg.url } : {}),
    FOS_LOG_LEVEL: 'warn',
    FOS_LOCK_OWNER: 'lead@bradford',
    FOS_PRINT_COMMAND: `mkdir -p "${printed}" && cat > "${printed}/$FOS_DOCUMENT_NAME"`,
    NO_COLOR: '1',
    CI: 'true',
  };
  const { started } = spawnServe(['--port', '0'], env, dir);
  const server = await started;
  const token = /API key \(shown once\): (fos_\S+)/.exec(server.stderr())?.[1];
  expect(token, server.stderr()).toBeTruthy();
  return {
    db,
    server,
    env,
    printed,
    token: token!,
    close: async () => {
      server.child.kill('SIGTERM');
      await server.exited;
      await pg?.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `fos <args>` as the lead types it; exit 0 expected unless `code` says otherwise. */
export async function fos(f: Floor, args: string[], o: { input?: string; code?: number } = {}): Promise<FosRun> {
  const r = await runFos(args, { env: f.env, input: o.input, timeoutMs: 60_000 });
  expect(r.code, `fos ${args.join(' ')}\n${r.stderr}`).toBe(o.code ?? 0);
  return r;
}

/** `fos <args>` whose stdout is one JSON document (stdout is a pipe: JSON). */
export async function fosJson<T = any>(f: Floor, args: string[], o: { input?: string } = {}): Promise<T> {
  return JSON.parse((await fos(f, args, o)).stdout) as T;
}

/** A read for the checks: GET <path> on the server with the lead's key. */
export async function read<T = any>(f: Floor, p: string): Promise<T> {
  const res = await fetch(`${f.server.url}${p}`, { headers: { 'x-access-token': f.token } });
  expect(res.status, p).toBe(200);
  return (await res.json()) as T;
}

/** Every record of a list endpoint, page by page (keyset cursor). */
export async function readAll<T = any>(f: Floor, p: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const sep = p.includes('?') ? '&' : '?';
    const page = await read<{ data: T[]; meta?: { next_cursor?: string | null } }>(
      f,
      `${p}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    out.push(...page.data);
    cursor = page.meta?.next_cursor ?? undefined;
    if (!cursor) return out;
  }
}

export const plain = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

/** A station (`fos pick …`, `fos pack …`) on an 80x24 pseudo-terminal, as the floor's PCs run it. */
export class Station {
  readonly pty: PtyRun;
  constructor(f: Floor, args: string[]) {
    this.pty = ptySpawn([process.execPath, fosBin, ...args], { env: f.env as Record<string, string>, columns: 80, rows: 24 });
  }

  /** Waits for `text` on the screen after position `from` (the whole screen by default). */
  async waitFor(expected: string | RegExp, from = 0): Promise<string> {
    const seen = (screen: string) => {
      const text = plain(screen.slice(from));
      return typeof expected === 'string' ? text.includes(expected) : expected.test(text);
    };
    await this.pty.waitFor(seen);
    const shown = plain(this.pty.output().slice(from));
    expect(shown, `waiting for ${String(expected)}`).toMatch(expected);
    return shown;
  }

  /** Scans (types) a line and waits for what it should show; returns the screen from that line on. */
  async scan(line: string, expected: string | RegExp): Promise<string> {
    const from = this.pty.output().length;
    this.pty.type(`${line}\r`);
    return this.waitFor(expected, from);
  }

  async exit(): Promise<{ code: number | null; output: string }> {
    this.pty.end();
    const r = await this.pty.done;
    return { code: r.code, output: plain(r.output) };
  }
}
