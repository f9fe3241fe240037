import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { ApiClient } from '../../client/api-client.js';
import type { Context } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { resourcePath } from './resource.js';

// Documents (labels, packing slips, manifests, downloaded files): fetched as bytes, then saved
// (--output), printed (--print) or written to stdout. Printing hands the bytes to `lp` (CUPS), or to
// FOS_PRINT_COMMAND (a shell command reading the document on stdin), so any printer setup works.

export interface DocumentOptions {
  output?: string;
  print?: boolean;
  printer?: string;
}

export interface Document {
  bytes: Buffer;
  contentType: string;
  /** Name for a saved copy, with its extension. */
  filename: string;
}

/** --output, --print, --printer on a command that produces a document. */
export function documentOptions(cmd: Command, what: string): Command {
  return cmd
    .option('-o, --output <file>', `save the ${what} to this file ('-' for stdout)`)
    .option('--print', `send the ${what} to the printer: lp (CUPS), or FOS_PRINT_COMMAND when set`)
    .addOption(new Option('--printer <name>', 'printer for --print (lp -d); default: the system default'));
}

const isZpl = (contentType: string) => /zpl/i.test(contentType);

/** The fields of a package (as the API returns it) that locate its label. */
interface PackageLabelRef {
  id?: unknown;
  shipping_label?: { label_url?: string | null } | null;
  shipping_label_url?: string | null;
}

/** A package's label: this server's document (PDF or ZPL), or an uploaded label from its own URL, fetched without the key. */
export async function fetchLabel(client: ApiClient, pkg: PackageLabelRef, format?: string): Promise<Document> {
  const id = String(pkg.id);
  const url: string | null = pkg.shipping_label?.label_url ?? pkg.shipping_label_url ?? null;
  if (!url) throw new CliError(`package ${id} has no shipping label`, ExitCode.NOT_FOUND);
  const own = /\/v1\/ops\/packages\/[^/]+\/label(\?|$)/.test(url);
  const wanted = format?.toLowerCase() ?? (/format=zpl/.test(url) ? 'zpl' : 'pdf');
  const doc = own ? await client.download(resourcePath('/ops/packages', id, 'label'), { format: wanted }) : await client.download(url);
  const ext = isZpl(doc.contentType) ? 'zpl' : /pdf/i.test(doc.contentType) ? 'pdf' : path.extname(new URL(url).pathname).slice(1) || 'bin';
  return { ...doc, filename: `label-${id}.${ext}` };
}

/** A package's packing slip, or the label followed by the slip. */
export async function fetchSlip(client: ApiClient, id: string, withLabel = false): Promise<Document> {
  const doc = await client.download(resourcePath('/ops/packages', id, withLabel ? 'label-with-packing-slip' : 'packing-slip'));
  return { ...doc, filename: `${withLabel ? 'label-and-slip' : 'packing-slip'}-${id}.pdf` };
}

/** A scan form's manifest. */
export async function fetchManifest(client: ApiClient, id: string): Promise<Document> {
  const doc = await client.download(resourcePath('/ops/scan-forms', id, 'manifest'));
  return { ...doc, filename: `scan-form-${id}.pdf` };
}

/**
 * Saves and/or prints the document as the flags ask. With neither flag it goes to stdout: a pipe
 * or file always, a terminal only for text (binary there would be garbage: a usage error).
 * Returns whether anything was done (callers that print JSON otherwise keep doing so).
 */
export async function deliver(ctx: Context, doc: Document, opts: DocumentOptions, fallbackToStdout = true): Promise<boolean> {
  if (opts.output === '-' || (!opts.output && !opts.print && fallbackToStdout)) {
    // Text (a CSV, a ZPL label) may go to a terminal; anything else would be garbage there.
    if (ctx.io.isStdoutTTY && !/^text\/|zpl/i.test(doc.contentType)) {
      throw new UsageError(
        `${doc.filename} is ${/pdf/i.test(doc.contentType) ? 'a PDF document' : `binary (${doc.contentType.split(';')[0]})`}: pass --output <file> or --print, or redirect stdout`,
      );
    }
    await ctx.io.out(doc.bytes);
    return true;
  }
  if (opts.output) {
    await mkdir(path.dirname(path.resolve(opts.output)), { recursive: true });
    await writeFile(opts.output, doc.bytes);
    ctx.io.info(`saved ${opts.output} (${doc.bytes.length} bytes)`);
  }
  if (opts.print) await print(ctx, doc, opts.printer);
  return Boolean(opts.output || opts.print);
}

/**
 * Saves the document in `dir` as `<prefix>-<filename>`; returns the path. The prefix is an order
 * number: its leading `#` goes (`#1003` -> `1003-label-….pdf`, what people search their folder
 * for), and characters unsafe in file names (a `/` in `A/1003`) become _.
 */
export async function saveIn(dir: string, doc: Document, prefix = ''): Promise<string> {
  await mkdir(dir, { recursive: true });
  const safe = (s: string) => s.replace(/[^\w.-]+/g, '_');
  const file = path.join(dir, `${prefix ? `${safe(prefix.replace(/^#+/, ''))}-` : ''}${safe(doc.filename)}`);
  await writeFile(file, doc.bytes);
  return file;
}

async function print(ctx: Context, doc: Document, printer?: string): Promise<void> {
  const custom = ctx.env.FOS_PRINT_COMMAND?.trim();
  const args = [...(printer ? ['-d', printer] : []), ...(isZpl(doc.contentType) ? ['-o', 'raw'] : []), '-t', doc.filename];
  const [cmd, argv, shell] = custom ? [custom, [], true] : ['lp', args, false];
  const result = await new Promise<{ code: number | null; error?: NodeJS.ErrnoException; stderr: string }>((resolve) => {
    const child = spawn(cmd, argv, {
      shell,
      stdio: ['pipe', 'ignore', 'pipe'],
      env: {
        ...process.env,
        ...ctx.env,
        FOS_DOCUMENT_NAME: doc.filename,
        FOS_DOCUMENT_TYPE: doc.contentType,
        ...(printer ? { FOS_PRINTER: printer } : {}),
      },
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ code: null, error, stderr }));
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin?.on('error', () => {});
    child.stdin?.end(doc.bytes);
  });
  if (result.error?.code === 'ENOENT') {
    throw new CliError(
      'cannot print: lp (CUPS) is not installed; install cups-client, or set FOS_PRINT_COMMAND to a command that reads the document on stdin',
    );
  }
  if (result.error || result.code !== 0) {
    const why = result.error?.message ?? (result.stderr.trim().split('\n')[0] || `exit code ${result.code}`);
    throw new CliError(`printing ${doc.filename} failed: ${why}`);
  }
  ctx.io.info(`sent ${doc.filename} to ${printer ?? (custom ? 'FOS_PRINT_COMMAND' : 'the default printer')}`);
}
