import { Transform, type Readable } from 'node:stream';
import { newId } from '../../db/ids.js';
import type { Db } from '../../db/types.js';
import { DomainError, invalid } from '../errors.js';
import { searchKey } from '../search.js';
import { FILE_CATEGORIES, FILE_LIMITS, type FileCategory } from './files.js';
import type { FileStorage } from './storage.js';
import { insertFile } from './store.js';

// Multipart uploads (POST /v1/ops/files, multipart/form-data; docs/files.md): the bytes stream
// to storage while their first bytes are kept to tell what they are; the record is written only
// once the bytes are stored, so a record never points at nothing. Images are then processed in
// the background (process.ts); anything else is READY at once.

export interface UploadPart {
  filename: string;
  stream: Readable & { truncated?: boolean };
  fields: Record<string, string>;
}

export const contentUrl = (origin: string, id: string) => `${origin}/v1/ops/files/${id}/content`;
export const thumbnailUrlOf = (url: string) => url.replace(/\/content$/, '/thumbnail');

function fieldsOf(fields: Record<string, string>, filename: string) {
  const known = new Set(['name', 'description', 'tags', 'file_category']);
  const extra = Object.keys(fields).filter((k) => !known.has(k));
  if (extra.length) throw invalid(`body.${extra[0]}`, 'is not a field of an upload (name, description, tags, file_category, and the file)');
  const L = FILE_LIMITS;
  const name = (fields.name ?? filename).trim();
  if (!name || name.length > L.name) throw invalid('body.name', `must be 1 to ${L.name} characters (default: the file's name)`);
  const description = fields.description ?? null;
  if (description !== null && description.length > L.description)
    throw invalid('body.description', `must be at most ${L.description} characters`);
  const tags = fields.tags
    ? [
        ...new Set(
          fields.tags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ]
    : [];
  if (tags.length > L.tags || tags.some((t) => t.length > L.tag))
    throw invalid('body.tags', `at most ${L.tags} comma-separated tags of up to ${L.tag} characters`);
  const category = fields.file_category?.toUpperCase();
  if (category !== undefined && !(FILE_CATEGORIES as readonly string[]).includes(category)) {
    throw invalid('body.file_category', `must be one of ${FILE_CATEGORIES.join(', ')}`);
  }
  return { name, description, tags, category: category as FileCategory | undefined };
}

export async function uploadFile(db: Db, storage: FileStorage, teamId: string, part: UploadPart, origin: string, limitBytes: number) {
  const meta = fieldsOf(part.fields, part.filename);
  const { PROCESSED_IMAGES, sniff, SNIFF_BYTES } = await import('./sniff.js'); // file-type loads with the first upload
  const id = newId();
  const key = `${teamId}/${id}`;
  let size = 0;
  const head: Buffer[] = [];
  let headBytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (headBytes < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
        headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
      }
      done(null, chunk);
    },
  });
  part.stream.on('error', (err) => tap.destroy(err));
  await storage.put(key, part.stream.pipe(tap));
  try {
    if (part.stream.truncated)
      throw new DomainError('payload-too-large', `The file is larger than this server accepts (${limitBytes} bytes).`);
    if (size === 0) throw invalid('body.file', 'is empty');
    const kind = await sniff(Buffer.concat(head), part.filename);
    if (!kind.ok) throw new DomainError('unsupported-media-type', `The file cannot be stored: ${kind.reason}.`);
    const image = PROCESSED_IMAGES.has(kind.mimetype);
    return await insertFile(db.prisma, {
      id,
      team_id: teamId,
      name: meta.name,
      description: meta.description,
      url: contentUrl(origin, id),
      mimetype: kind.mimetype,
      size: BigInt(size),
      tags: meta.tags,
      file_category: meta.category ?? (image ? 'IMAGE' : 'DOCUMENT'),
      search_text: searchKey(meta.name),
      storage_key: key,
      processing_status: image ? 'PENDING' : 'READY',
    });
  } catch (err) {
    await storage.remove(key);
    throw err;
  }
}
