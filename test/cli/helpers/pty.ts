// Runs a command on a pseudo-terminal, as a person at a terminal would, with util-linux's
// `script` (no native package needed): stdin, stdout and stderr of the command are the terminal,
// sized `columns` x `rows`. The test waits for text on the screen (`waitFor`), then types
// (`type`); nothing depends on timing.
//
//   const p = ptySpawn([process.execPath, 'bin/fos.js', 'login'], { env });
//   await p.waitFor('API key:'); p.type('fos_…\r');
//   const { code, output } = await p.done;
import { spawn } from 'node:child_process';

export interface PtyOptions {
  env: Record<string, string | undefined>;
  cwd?: string;
  columns?: number;
  rows?: number;
}

export interface PtyRun {
  /** Resolves when `text` (or a match of the pattern, or a screen the predicate accepts) has appeared. */
  waitFor(text: string | RegExp | ((screen: string) => boolean)): Promise<void>;
  /** Types `keys` on the terminal ('\r' is Enter, ' ' toggles a checkbox). */
  type(keys: string): void;
  /** The screen so far (terminal control sequences included). */
  output(): string;
  /**
   * Closes the terminal's input side. `script` notices its command ended only on its next read of
   * input, so a command that exits on its own after reading lines (not in raw mode) needs this.
   */
  end(): void;
  /** Kills `script` (its command loses the terminal and ends): a crashed station. */
  kill(): void;
  done: Promise<{ code: number | null; output: string }>;
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

export function ptySpawn(argv: string[], { env, cwd, columns = 80, rows = 24 }: PtyOptions): PtyRun {
  // `stty` sizes the terminal `script` made; -e: script exits with the command's code.
  const command = `stty cols ${columns} rows ${rows} && exec ${argv.map(quote).join(' ')}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd, env: { TERM: 'xterm', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let closed = false;
  const waiters: { match: (s: string) => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (w.match(screen)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString('utf8');
    check();
  });
  child.stderr.on('data', (d: Buffer) => (screen += d.toString('utf8')));
  const done = new Promise<{ code: number | null; output: string }>((resolve) => {
    child.on('close', (code) => {
      closed = true;
      for (const w of waiters) w.resolve(); // the waiter's own assertion reports what was missing
      resolve({ code, output: screen });
    });
  });
  return {
    waitFor: (text) =>
      new Promise<void>((resolve) => {
        if (closed) return resolve(); // the waiter's own assertion reports what was missing
        waiters.push({
          match: (s) => (typeof text === 'string' ? s.includes(text) : typeof text === 'function' ? text(s) : text.test(s)),
          resolve,
        });
        check();
      }),
    type: (keys) => child.stdin.write(keys),
    output: () => screen,
    end: () => child.stdin.end(),
    kill: () => void child.kill('SIGKILL'),
    done: done.then((r) => {
      child.stdin.end();
      return r;
    }),
  };
}
