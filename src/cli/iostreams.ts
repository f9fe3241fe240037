import { isatty } from 'node:tty';
import { Readable, Writable } from 'node:stream';
import { StdoutClosedError } from './errors.js';

/**
 * IOStreams (after the GitHub CLI's iostreams package): the process's streams plus what the
 * CLI needs to know about them. Commands never touch process.stdout directly; tests build one
 * with testIOStreams() and flip the TTY switches.
 *
 * Data goes to stdout (`out`), messages and progress to stderr (`info`, `warn`, `progress`).
 */
export interface Progress {
  update(text: string): void;
  done(): void;
}

export interface StreamsInit {
  /** Or a function that opens it: process.stdin is made on first use (most commands never read it). */
  stdin: NodeJS.ReadableStream | (() => NodeJS.ReadableStream);
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  isStdinTTY: boolean;
  isStdoutTTY: boolean;
  isStderrTTY: boolean;
  /** Colour wanted by the environment (TTY and no NO_COLOR); `--no-color` turns it off later. */
  colorEnabled: boolean;
  terminalWidth?: number;
  terminalHeight?: number;
}

const ansi = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const STYLES = { bold: ansi(1, 22), dim: ansi(2, 22), red: ansi(31, 39), green: ansi(32, 39), yellow: ansi(33, 39), cyan: ansi(36, 39) };
export type Style = keyof typeof STYLES;

export class IOStreams {
  private readonly openStdin: () => NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly isStdinTTY: boolean;
  readonly isStdoutTTY: boolean;
  readonly isStderrTTY: boolean;
  colorEnabled: boolean;
  readonly terminalWidth: number;
  /** Rows of the terminal (output longer than this goes through the pager). */
  readonly terminalHeight: number;
  private stdoutClosed = false;

  constructor(init: StreamsInit) {
    const stdin = init.stdin;
    this.openStdin = typeof stdin === 'function' ? stdin : () => stdin;
    this.stdout = init.stdout;
    this.stderr = init.stderr;
    this.isStdinTTY = init.isStdinTTY;
    this.isStdoutTTY = init.isStdoutTTY;
    this.isStderrTTY = init.isStderrTTY;
    this.colorEnabled = init.colorEnabled;
    this.terminalWidth = init.terminalWidth ?? 100;
    this.terminalHeight = init.terminalHeight ?? 24;
    this.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') this.stdoutClosed = true;
    });
  }

  /** Prompts are allowed only when both stdin and stdout are terminals. */
  get canPrompt(): boolean {
    return this.isStdinTTY && this.isStdoutTTY;
  }

  /** Applies a style when colour is enabled. */
  style(name: Style, text: string): string {
    return this.colorEnabled ? STYLES[name](text) : text;
  }

  /** Writes data (text, or a document's bytes) to stdout, waiting for the pipe to drain (streaming output stays bounded). */
  async out(text: string | Uint8Array): Promise<void> {
    if (this.stdoutClosed) throw new StdoutClosedError();
    if (this.stdout.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.stdout.off('drain', done);
        this.stdout.off('error', done);
        resolve();
      };
      this.stdout.once('drain', done);
      this.stdout.once('error', done);
    });
    if (this.stdoutClosed) throw new StdoutClosedError();
  }

  /** A message for the user on stderr. */
  info(message: string): void {
    this.stderr.write(`${message}\n`);
  }

  warn(message: string): void {
    this.stderr.write(`${this.style('yellow', 'warning:')} ${message}\n`);
  }

  /** A one-line progress indicator redrawn in place; a no-op unless stderr is a terminal. */
  progress(): Progress {
    if (!this.isStderrTTY) return { update() {}, done() {} };
    let drawn = false;
    return {
      update: (text) => {
        drawn = true;
        this.stderr.write(`\r\u001b[2K${this.style('dim', text)}`);
      },
      done: () => {
        if (drawn) this.stderr.write('\r\u001b[2K');
        drawn = false;
      },
    };
  }

  get stdin(): NodeJS.ReadableStream {
    return this.openStdin();
  }

  /** Reads all of stdin as UTF-8 (for `--with-token`, `--data -`, `--input -`). */
  async readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.stdin as AsyncIterable<Buffer | string>) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/** Whether the environment allows colour: NO_COLOR (any value) disables it. */
export function envAllowsColor(env: Record<string, string | undefined>, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return isTTY && env.TERM !== 'dumb';
}

/** A size the terminal reports, else $COLUMNS/$LINES: a terminal of no size (a pty nobody sized: `script`, `docker exec -t`) reports 0. */
export function sizeOf(reported: number | undefined, fromEnv: string | undefined): number | undefined {
  if (reported && reported > 0) return reported;
  const n = Number(fromEnv);
  return Number.isInteger(n) && n > 0 ? n : undefined; // undefined: the defaults (100 x 24)
}

/** The real process streams. */
export function systemIOStreams(env: Record<string, string | undefined> = process.env): IOStreams {
  const isStdoutTTY = Boolean(process.stdout.isTTY);
  return new IOStreams({
    stdin: () => process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    isStdinTTY: isatty(0),
    isStdoutTTY,
    isStderrTTY: Boolean(process.stderr.isTTY),
    colorEnabled: envAllowsColor(env, isStdoutTTY),
    terminalWidth: sizeOf(process.stdout.columns, env.COLUMNS),
    terminalHeight: sizeOf(process.stdout.rows, env.LINES),
  });
}

export interface TestIOStreams extends IOStreams {
  /** Everything written to stdout so far. */
  stdoutText(): string;
  /** The same, as bytes (documents). */
  stdoutBytes(): Buffer;
  stderrText(): string;
}

/** In-memory streams for tests; `tty` sets all three TTY switches at once. */
export function testIOStreams(
  opts: {
    stdin?: string;
    tty?: boolean;
    stdinTTY?: boolean;
    stdoutTTY?: boolean;
    stderrTTY?: boolean;
    color?: boolean;
    width?: number;
    height?: number;
  } = {},
): TestIOStreams {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (chunks: Buffer[]) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callback();
      },
    });
  const stdout = sink(out);
  const stderr = sink(err);
  const tty = opts.tty ?? false;
  const io = new IOStreams({
    stdin: Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]),
    stdout,
    stderr,
    isStdinTTY: opts.stdinTTY ?? tty,
    isStdoutTTY: opts.stdoutTTY ?? tty,
    isStderrTTY: opts.stderrTTY ?? tty,
    colorEnabled: opts.color ?? false,
    terminalWidth: opts.width ?? 120,
    terminalHeight: opts.height ?? 40,
  }) as TestIOStreams;
  io.stdoutText = () => Buffer.concat(out).toString('utf8');
  io.stdoutBytes = () => Buffer.concat(out);
  io.stderrText = () => Buffer.concat(err).toString('utf8');
  return io;
}
