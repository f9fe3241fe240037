import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer } from 'file-type';

// What an upload really is, from its first bytes (file-type's signatures), never from its name or
// the part's Content-Type. Executables are refused however they are named. Text has no
// signature: valid UTF-8 without NUL bytes is text (text/csv when the name says .csv).

/** Bytes file-type needs to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

const EXECUTABLE = new Set([
  'application/x-elf',
  'application/x-msdownload',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/x-executable',
  'application/vnd.microsoft.portable-executable',
  'application/x-dosexec',
  'application/wasm',
]);

export const PROCESSED_IMAGES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);

export type Sniffed = { ok: true; mimetype: string } | { ok: false; reason: string };

export async function sniff(head: Buffer, filename: string): Promise<Sniffed> {
  const found = await fileTypeFromBuffer(head);
  if (found) {
    if (EXECUTABLE.has(found.mime))
      return { ok: false, reason: `its content is an executable (${found.mime}), which is not accepted whatever its name` };
    return { ok: true, mimetype: found.mime };
  }
  if (head.subarray(0, 2).toString('latin1') === '#!')
    return { ok: false, reason: 'its content is a script (#!), which is not accepted whatever its name' };
  if (!head.includes(0) && utf8(head)) return { ok: true, mimetype: /\.csv$/i.test(filename) ? 'text/csv' : 'text/plain' };
  return { ok: true, mimetype: 'application/octet-stream' };
}

/** Valid UTF-8, allowing a character cut at the end of the sample. */
function utf8(buf: Buffer): boolean {
  for (let cut = 0; cut < 4 && cut <= buf.length; cut++) if (isUtf8(buf.subarray(0, buf.length - cut))) return true;
  return false;
}
