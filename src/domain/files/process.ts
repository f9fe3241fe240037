import type { Db } from '../../db/types.js';
import { enqueueEvent } from '../events/index.js';
import type { FileStorage } from './storage.js';
import { thumbnailUrlOf } from './upload.js';
import { transaction } from '../../db/tx.js';
import { claimPendingFile, fileExists, findPendingFiles, finishPendingFile } from './store.js';

// Background processing of uploaded images (docs/files.md): a thumbnail (sharp, at most 320 px,
// WebP) next to the original and a BlurHash of the picture; processing_status PENDING -> READY,
// or FAILED with processing_error. Each file is claimed first by a compare-and-set on
// processing_started_at, so several server processes never process one file twice; a claim
// older than STALE_MS (a process that died mid-way) is taken over.

const STALE_MS = 5 * 60_000;
const BATCH = 10;
const THUMB = 320;

/** Processes what is pending, a batch at a time; returns how many files it finished. */
export async function processPendingFiles(db: Db, storage: FileStorage): Promise<number> {
  let done = 0;
  for (;;) {
    const stale = new Date(Date.now() - STALE_MS);
    const pending = await findPendingFiles(db.prisma, stale, BATCH);
    if (!pending.length) return done;
    let claimedAny = false;
    for (const f of pending) {
      const { count } = await claimPendingFile(db.prisma, f.id, f.processing_started_at, new Date());
      if (!count) continue; // another process has it
      claimedAny = true;
      await processOne(db, storage, { id: f.id, storage_key: f.storage_key!, url: f.url, team_id: f.team_id }); // where: storage_key not null
      done++;
    }
    if (!claimedAny) return done;
  }
}

type Claimed = { id: string; storage_key: string; url: string; team_id: string };

/** One claimed file: what the sweep read of it is all it needs (no second read). */
async function processOne(db: Db, storage: FileStorage, file: Claimed): Promise<void> {
  const { id } = file;
  let outcome: { processing_status: 'READY' | 'FAILED'; thumbnail_url?: string; preview_blur_hash?: string; processing_error?: string };
  try {
    const opened = await storage.open(file.storage_key);
    if (!opened) throw new Error('the stored bytes are missing');
    const chunks: Buffer[] = [];
    for await (const c of opened.stream) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const [{ default: sharp }, { encode }] = await Promise.all([import('sharp'), import('blurhash')]);
    const image = sharp(bytes, { limitInputPixels: 100_000_000 }).rotate();
    const thumb = await image.clone().resize(THUMB, THUMB, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
    const small = await image.clone().resize(32, 32, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const hash = encode(new Uint8ClampedArray(small.data), small.info.width, small.info.height, 4, 3);
    await storage.put(
      `${file.storage_key}.thumb.webp`,
      (async function* one() {
        yield thumb;
      })(),
    );
    outcome = { processing_status: 'READY', thumbnail_url: thumbnailUrlOf(file.url), preview_blur_hash: hash };
  } catch (err) {
    outcome = { processing_status: 'FAILED', processing_error: (err instanceof Error ? err.message : String(err)).slice(0, 500) };
  }
  await transaction(db, async (tx) => {
    const { count } = await finishPendingFile(tx, id, outcome);
    if (!count && outcome.thumbnail_url && !(await fileExists(tx, id))) {
      await storage.remove(`${file.storage_key}.thumb.webp`); // deleted while it was processed
    }
    if (count) {
      await enqueueEvent(tx, file.team_id, 'file.processed', {
        file_id: id,
        processing_status: outcome.processing_status,
        thumbnail_url: outcome.thumbnail_url ?? null,
        preview_blur_hash: outcome.preview_blur_hash ?? null,
        processing_error: outcome.processing_error ?? null,
      });
    }
  });
}
