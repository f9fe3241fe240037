import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printList, printRecord } from '../../output/print.js';
import { deliver, documentOptions, type DocumentOptions } from '../../shared/documents.js';
import { addArguments, commandOf, withExamples } from '../../shared/help.js';
import { fullIdOf } from '../../shared/refs.js';
import { resourcePath } from '../../shared/resource.js';
import { declareOutput, fixed, response } from '../../output/shape.js';

// `fos files upload <path…>` (multipart, streamed from disk with a progress line) and `fos files
// download <id>` (the bytes of an uploaded file). docs/files.md.

/** A multipart/form-data body streaming the file between its head and tail, with its exact length. */
function multipart(file: string, size: number, fields: Record<string, string>, onChunk: (n: number) => void) {
  const boundary = `----fos-${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
  const name = path.basename(file).replace(/["\r\n\\]/g, '_');
  const head = Buffer.from(
    [
      ...Object.entries(fields).map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    ].join(''),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
      onChunk((chunk as Buffer).length);
      yield chunk as Buffer;
    }
    yield tail;
  }
  return {
    body: Readable.from(parts()),
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
  };
}

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

export function filesUpload(ctx: Context): Command {
  const cmd = new Command('upload').description(
    'Upload files (their type is read from their bytes; images get a thumbnail and a BlurHash)',
  );
  addArguments(cmd, ['<path...>']);
  cmd
    .option('--name <name>', 'name of the file (one file only; default: its file name)')
    .option('--description <text>', 'description of every file')
    .option('--tag <tag...>', 'tags of every file')
    .option(
      '--file-category <category>',
      'DOCUMENT, IMAGE, LABEL, PACKING_SLIP, INVOICE or OTHER (default: IMAGE for images, else DOCUMENT)',
    );
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const [paths] = command.processedArgs as [string[]];
    const opts = command.opts<{ name?: string; description?: string; tag?: string[]; fileCategory?: string }>();
    if (opts.name && paths.length > 1) throw new UsageError('--name names one file; upload several without it (each keeps its file name)');
    const sizes = await Promise.all(
      paths.map(async (p) => {
        const info = await stat(p).catch(() => null);
        if (!info?.isFile()) throw new UsageError(`${p}: no such file`);
        return info.size;
      }),
    );
    const fields: Record<string, string> = {
      ...(opts.name ? { name: opts.name } : {}),
      ...(opts.description ? { description: opts.description } : {}),
      ...(opts.tag?.length ? { tags: opts.tag.join(',') } : {}),
      ...(opts.fileCategory ? { file_category: opts.fileCategory.toUpperCase() } : {}),
    };
    const progress = ctx.io.progress();
    const uploaded: Record<string, unknown>[] = [];
    try {
      for (const [i, file] of paths.entries()) {
        let sent = 0;
        const label = `${paths.length > 1 ? `[${i + 1}/${paths.length}] ` : ''}${path.basename(file)}`;
        const form = multipart(file, sizes[i], fields, (n) => {
          sent += n;
          progress.update(
            `uploading ${label}: ${mib(sent)} of ${mib(sizes[i])} (${sizes[i] ? Math.floor((sent / sizes[i]) * 100) : 100}%)`,
          );
        });
        const res = await ctx.client().request<Record<string, unknown>>('POST', '/ops/files', {
          rawBody: form.body,
          headers: { 'content-type': form.contentType, 'content-length': String(form.length) },
        });
        uploaded.push(res.data);
        progress.done();
        ctx.io.info(`uploaded ${file} as ${res.data.id} (${res.data.mimetype}, ${res.data.size} bytes)`);
      }
    } finally {
      progress.done();
    }
    if (uploaded.length === 1) await printRecord(ctx, uploaded[0]);
    else await printList(ctx, uploaded, { columns: ['id', 'name', 'mimetype', 'size', 'processing_status'] });
  });
  declareOutput(
    cmd,
    response(async () => (await import('../../../contract/files.js')).FileSchema),
  );
  return withExamples(cmd, ['fos files upload photo.jpg', 'fos files upload *.pdf --tag invoices --file-category INVOICE']);
}

export function filesDownload(ctx: Context): Command {
  const cmd = new Command('download').description('Download the bytes of an uploaded file');
  addArguments(cmd, ['<file-id>']);
  cmd.option('--thumbnail', "the image's thumbnail (WebP) instead");
  documentOptions(cmd, 'file');
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const id = await fullIdOf(ctx.client(), '/ops/files', (command.processedArgs as string[])[0], 'file');
    const opts = command.opts() as DocumentOptions & { thumbnail?: boolean };
    const doc = await ctx.client().download(resourcePath('/ops/files', id, opts.thumbnail ? 'thumbnail' : 'content'));
    const name = /filename\*=UTF-8''([^;]+)/.exec(doc.disposition ?? '')?.[1];
    await deliver(ctx, { bytes: doc.bytes, contentType: doc.contentType, filename: name ? decodeURIComponent(name) : id }, opts);
  });
  declareOutput(cmd, fixed("writes the file's bytes"));
  return withExamples(cmd, ['fos files download 0193… --output contract.pdf', 'fos files download 0193… > photo.jpg']);
}
