// Runs the CLI in-process with fake streams, an isolated environment and a temp config dir.
//
//   const dir = await tempConfigDir();
//   const r = await runCli(['products', 'list'], { configDir: dir, tty: true });
//   expect(r.code).toBe(0); r.stdout; r.stderr;

import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createContext, type Context } from '../../../src/cli/context.js';
import { testIOStreams, type TestIOStreams } from '../../../src/cli/iostreams.js';
import { run } from '../../../src/cli/main.js';
import type { PromptBackend } from '../../../src/cli/prompt.js';

export async function tempConfigDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'fos-cli-test-'));
}

export interface RunCliOptions {
  configDir?: string;
  tty?: boolean;
  stdoutTTY?: boolean;
  /** Terminal width (default 120). */
  width?: number;
  /** Terminal rows (default 40). */
  height?: number;
  stdin?: string;
  env?: Record<string, string | undefined>;
  /** Answers for prompts (only asked when tty). */
  prompts?: Partial<PromptBackend>;
}

export interface CliResult {
  code: number;
  stdout: string;
  /** stdout as bytes (documents). */
  stdoutBytes: Buffer;
  stderr: string;
  ctx: Context;
  io: TestIOStreams;
}

const noPrompts: PromptBackend = {
  input: async () => {
    throw new Error('unexpected prompt: input');
  },
  password: async () => {
    throw new Error('unexpected prompt: password');
  },
  confirm: async () => {
    throw new Error('unexpected prompt: confirm');
  },
  select: async () => {
    throw new Error('unexpected prompt: select');
  },
  checkbox: async () => {
    throw new Error('unexpected prompt: checkbox');
  },
};

export async function runCli(args: string[], opts: RunCliOptions = {}): Promise<CliResult> {
  const io = testIOStreams({ tty: opts.tty, stdoutTTY: opts.stdoutTTY, stdin: opts.stdin, width: opts.width, height: opts.height });
  const env = { FOS_CONFIG_DIR: opts.configDir ?? (await tempConfigDir()), FOS_LOCK_OWNER: 'tester@bench', ...opts.env };
  const ctx = createContext({
    io,
    env,
    promptBackend: { ...noPrompts, ...opts.prompts },
    retry: { baseDelayMs: 5, maxWaitMs: 3000 },
  });
  const code = await run(['node', 'fos', ...args], ctx, {
    loadServerCommands: async () => {
      throw new Error('server commands are not loaded in CLI tests');
    },
  });
  return { code, stdout: io.stdoutText(), stdoutBytes: io.stdoutBytes(), stderr: io.stderrText(), ctx, io };
}
