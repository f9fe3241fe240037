import { UsageError } from './errors.js';
import type { IOStreams } from './iostreams.js';

/**
 * Prompts for commands. Every prompt names the flag that answers it: when stdin and stdout are
 * not both terminals the prompt is refused with a usage error telling the user to pass that
 * flag (scripts never hang on a question). @inquirer/prompts is imported on first use only.
 */
export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  input(opts: { message: string; flag: string; default?: string; validate?: (v: string) => true | string }): Promise<string>;
  password(opts: { message: string; flag: string }): Promise<string>;
  /** `flag` defaults to `--yes`. */
  confirm(opts: { message: string; flag?: string; default?: boolean }): Promise<boolean>;
  select<T>(opts: { message: string; flag: string; choices: Choice<T>[]; default?: T }): Promise<T>;
  /** Several of `choices` (space to toggle). */
  checkbox<T>(opts: { message: string; flag: string; choices: Choice<T>[] }): Promise<T[]>;
}

/** The question-asking part, swappable in tests; receives the streams to use. */
export interface PromptBackend {
  input(opts: { message: string; default?: string; validate?: (v: string) => true | string }, io: IOStreams): Promise<string>;
  password(opts: { message: string; mask?: string }, io: IOStreams): Promise<string>;
  confirm(opts: { message: string; default?: boolean }, io: IOStreams): Promise<boolean>;
  select<T>(opts: { message: string; choices: Choice<T>[]; default?: T }, io: IOStreams): Promise<T>;
  checkbox<T>(opts: { message: string; choices: Choice<T>[] }, io: IOStreams): Promise<T[]>;
}

const streams = (io: IOStreams) => ({ input: io.stdin, output: io.stderr }) as never;

/** @inquirer/prompts, writing its questions to stderr so stdout stays data-only. */
export const inquirerBackend: PromptBackend = {
  async input(opts, io) {
    const { input } = await import('@inquirer/prompts');
    return input(opts, streams(io));
  },
  async password(opts, io) {
    const { password } = await import('@inquirer/prompts');
    return password({ mask: '*', ...opts }, streams(io));
  },
  async confirm(opts, io) {
    const { confirm } = await import('@inquirer/prompts');
    return confirm(opts, streams(io));
  },
  async select(opts, io) {
    const { select } = await import('@inquirer/prompts');
    return select(opts, streams(io));
  },
  async checkbox(opts, io) {
    const { checkbox } = await import('@inquirer/prompts');
    return checkbox(opts, streams(io));
  },
};

export function notInteractive(flag: string, what: string): UsageError {
  return new UsageError(`${what} required: pass ${flag} (prompts need a terminal on stdin and stdout)`);
}

export function createPrompter(io: IOStreams, backend: PromptBackend = inquirerBackend): Prompter {
  const guard = (flag: string, message: string) => {
    if (!io.canPrompt) throw notInteractive(flag, message.replace(/[:?]\s*$/, '').toLowerCase());
  };
  return {
    async input({ flag, ...opts }) {
      guard(flag, opts.message);
      return backend.input(opts, io);
    },
    async password({ flag, ...opts }) {
      guard(flag, opts.message);
      return backend.password(opts, io);
    },
    async confirm({ flag = '--yes', ...opts }) {
      if (!io.canPrompt) throw new UsageError(`confirmation required: pass ${flag} to run non-interactively`);
      return backend.confirm(opts, io);
    },
    async select({ flag, ...opts }) {
      guard(flag, opts.message);
      return backend.select(opts, io);
    },
    async checkbox({ flag, ...opts }) {
      guard(flag, opts.message);
      return backend.checkbox(opts, io);
    },
  };
}
