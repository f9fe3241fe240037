import type { Context } from '../context.js';

/**
 * Long single-record output on a terminal goes through a pager, as git and gh do: `FOS_PAGER`,
 * else `PAGER`, else `less -FRX` (quits at once when the text fits, keeps colours, leaves the
 * text on screen). `--no-pager`, or `FOS_PAGER` set to '' or `cat`, prints directly.
 */
export function pagerCommand(ctx: Context): string | undefined {
  if (ctx.options.pager === false) return undefined;
  const configured = ctx.env.FOS_PAGER ?? ctx.env.PAGER;
  const cmd = (configured ?? 'less -FRX').trim();
  return cmd === '' || cmd === 'cat' ? undefined : cmd;
}

/** Writes `text` to stdout, through the pager when it is longer than the terminal. */
export async function paged(ctx: Context, text: string): Promise<void> {
  const io = ctx.io;
  const cmd = io.isStdoutTTY ? pagerCommand(ctx) : undefined;
  const lines = text.split('\n').length - 1;
  if (!cmd || lines < io.terminalHeight) return io.out(text);
  const direct = io.stdout === process.stdout;
  const { spawn } = await import('node:child_process'); // only when a pager runs
  const ok = await new Promise<boolean>((resolve) => {
    const child = spawn(cmd, {
      shell: true,
      // The pager draws on the real terminal; in-process streams (tests, embedding) get its output.
      stdio: ['pipe', direct ? 'inherit' : 'pipe', 'inherit'],
      env: { ...process.env, ...ctx.env, LESS: ctx.env.LESS ?? 'FRX' },
    });
    if (!direct) child.stdout?.on('data', (chunk: Buffer) => io.stdout.write(chunk));
    child.on('error', () => resolve(false));
    // 127: the shell found no such command; the text is printed directly instead.
    child.on('close', (code) => resolve(code !== 127));
    child.stdin?.on('error', () => {}); // the user quit the pager before the end: fine
    child.stdin?.end(text);
  });
  if (!ok) await io.out(text);
}
