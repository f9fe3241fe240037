import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { runCli } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';

// `fos files upload|download|delete` through the real command tree against a real server: the
// multipart body streamed from disk, the type read by the server, the thumbnail once processed,
// an executable refused, and delete removing the bytes.

let t: TestApp;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  ({ t, env } = await cliServer());
  dir = await mkdtemp(path.join(tmpdir(), 'fos-files-cli-'));
});
afterAll(() => t?.close());

const fos = (...args: string[]) => runCli(args, { env });

describe('fos files upload / download / delete', () => {
  it('uploads files from disk, downloads them and the thumbnail, and deletes them', async () => {
    const photo = path.join(dir, 'dock photo.jpg');
    const jpeg = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 90, g: 60, b: 30 } } })
      .jpeg()
      .toBuffer();
    await writeFile(photo, jpeg);
    const notes = path.join(dir, 'notes.csv');
    await writeFile(notes, 'sku,note\nMUG,chipped\n');

    const r = await fos('files', 'upload', photo, notes, '--tag', 'dock', '--format', 'json');
    expect(r.code, r.stderr).toBe(0);
    const [img, csv] = JSON.parse(r.stdout);
    expect(img).toMatchObject({
      name: 'dock photo.jpg',
      mimetype: 'image/jpeg',
      size: jpeg.length,
      tags: ['dock'],
      processing_status: 'PENDING',
    });
    expect(csv).toMatchObject({ name: 'notes.csv', mimetype: 'text/csv', processing_status: 'READY' });
    expect(r.stderr).toContain(`uploaded ${photo} as ${img.id}`);

    const out = path.join(dir, 'back.jpg');
    const d = await fos('files', 'download', img.id, '--output', out);
    expect(d.code, d.stderr).toBe(0);
    expect((await readFile(out)).equals(jpeg)).toBe(true);
    const piped = await fos('files', 'download', csv.id);
    expect(piped.stdout).toBe('sku,note\nMUG,chipped\n');

    await t.app.files.processor.kick();
    const thumb = await fos('files', 'download', img.id, '--thumbnail');
    expect(await sharp(thumb.stdoutBytes).metadata()).toMatchObject({ format: 'webp', width: 320, height: 213 });

    const del = await fos('files', 'delete', img.id, '--yes');
    expect(del.code, del.stderr).toBe(0);
    expect((await fos('files', 'download', img.id)).code).toBe(4);
  });

  it('an executable renamed to .pdf is refused, and --name is for one file', async () => {
    const exe = path.join(dir, 'invoice.pdf');
    await writeFile(exe, Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(200, 1)]));
    const r = await fos('files', 'upload', exe);
    expect(r.code).toBe(2); // 415: refused input
    expect(r.stderr).toContain('executable');
    const two = await fos('files', 'upload', exe, exe, '--name', 'x');
    expect(two.code).toBe(2);
    expect((await fos('files', 'upload', path.join(dir, 'missing.txt'))).stderr).toContain('no such file');
  });
});
