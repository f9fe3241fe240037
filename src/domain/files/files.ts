import type { Db, File, Prisma } from '../../db/types.js';
import type { FileStorage } from './storage.js';
import { searchKey } from '../search.js';
import { notFound } from '../errors.js';
import * as store from './store.js';

// File records (spec 2.9, 4.10): uploads, whose bytes fos keeps (upload.ts, storage.ts,
// process.ts), and records of files kept elsewhere, registered by URL (processing_status stays
// PENDING for those: fos never fetches them).

import { FILE_CATEGORIES, FILE_LIMITS } from '../../contract/enums.js';
export { FILE_CATEGORIES, FILE_LIMITS };
export type FileCategory = (typeof FILE_CATEGORIES)[number];

export interface FileInput {
  name: string;
  url: string;
  mimetype: string;
  size: number;
  description?: string | null;
  tags?: string[];
  file_category?: FileCategory;
}

export interface FilePatch {
  name?: string;
  description?: string | null;
  tags?: string[];
  file_category?: FileCategory;
}

const uniqueTags = (tags: string[]) => [...new Set(tags)];

export function fileView(f: File) {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    url: f.url,
    thumbnail_url: f.thumbnail_url,
    preview_blur_hash: f.preview_blur_hash,
    mimetype: f.mimetype,
    size: Number(f.size),
    file_category: f.file_category,
    processing_status: f.processing_status,
    processing_error: f.processing_error,
    tags: Array.isArray(f.tags) ? (f.tags as string[]) : [],
    team_id: f.team_id,
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
}

export function createFile(db: Db, teamId: string, input: FileInput) {
  return store.insertFile(db.prisma, {
    team_id: teamId,
    name: input.name,
    url: input.url,
    mimetype: input.mimetype.toLowerCase(),
    size: BigInt(input.size),
    description: input.description ?? null,
    tags: uniqueTags(input.tags ?? []),
    file_category: input.file_category ?? 'DOCUMENT',
    search_text: searchKey(input.name),
  });
}

export async function getFile(db: Db, teamId: string, fileId: string) {
  const file = await store.findTeamFile(db.prisma, teamId, fileId);
  if (!file) throw notFound('File', fileId);
  return file;
}

export async function updateFile(db: Db, teamId: string, fileId: string, patch: FilePatch) {
  const data: Prisma.FileUpdateManyMutationInput = {};
  if (patch.name !== undefined) Object.assign(data, { name: patch.name, search_text: searchKey(patch.name) });
  if (patch.description !== undefined) data.description = patch.description;
  if (patch.tags !== undefined) data.tags = uniqueTags(patch.tags);
  if (patch.file_category !== undefined) data.file_category = patch.file_category;
  // One conditional write: the team check and the change cannot be separated by another request.
  const { count } = await store.updateTeamFile(db.prisma, teamId, fileId, data);
  if (count !== 1) throw notFound('File', fileId);
  return getFile(db, teamId, fileId);
}

/** Deletes the record (one conditional write, so the team check holds), then its bytes and thumbnail. */
export async function deleteFile(db: Db, storage: FileStorage, teamId: string, fileId: string): Promise<void> {
  const file = await store.findTeamFileKey(db.prisma, teamId, fileId);
  const { count } = await store.deleteTeamFile(db.prisma, teamId, fileId);
  if (!file || count !== 1) throw notFound('File', fileId);
  if (file.storage_key) {
    await storage.remove(`${file.storage_key}.thumb.webp`); // one at a time: some S3 servers trip over sibling deletes
    await storage.remove(file.storage_key);
  }
}
