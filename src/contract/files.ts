import { Type } from 'typebox';
import { Opt, StringEnum, Timestamp, listOf, pageQuery, sortOrder } from './common.js';
import { FILE_CATEGORIES, FILE_LIMITS } from './enums.js';

const fileFields = {
  id: Type.String(),
  name: Type.String(),
  description: Opt(Type.String()),
  url: Type.String(),
  thumbnail_url: Opt(Type.String()),
  preview_blur_hash: Opt(Type.String()),
  mimetype: Type.String(),
  size: Type.Integer({ description: 'bytes' }),
  file_category: Type.String({ description: FILE_CATEGORIES.join(' | ') }),
  processing_status: Type.String({
    description:
      'uploaded images: PENDING until the thumbnail and BlurHash are made, then READY, or FAILED (processing_error says why); other uploads READY; files registered by URL stay PENDING',
  }),
  processing_error: Opt(Type.String({ description: 'why processing failed' })),
  tags: Type.Array(Type.String()),
  team_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const FileSchema = Type.Object(fileFields);

const SupportedAction = Type.Object({ action: StringEnum(['VIEW_FILE'] as const) });
export const FileListItemSchema = Type.Object({ ...fileFields, supported_actions: Type.Array(SupportedAction) });
export const FileListSchema = listOf(FileListItemSchema);

const Name = Type.String({ minLength: 1, maxLength: FILE_LIMITS.name });
const Description = Type.Union([Type.String({ maxLength: FILE_LIMITS.description }), Type.Null()]);
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: FILE_LIMITS.tag }), { maxItems: FILE_LIMITS.tags });
const Category = StringEnum(FILE_CATEGORIES);

export const FileCreateBody = Type.Object(
  {
    name: Name,
    url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 }),
    mimetype: Type.String({ pattern: '^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$', maxLength: 255 }),
    size: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'bytes' }),
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    file_category: Type.Optional(Category),
  },
  { additionalProperties: false },
);

/** The multipart form of an upload; documents the form only (the route streams it, see app.ts isMultipartSchema). */
export const FileUploadForm = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'the bytes; their type is read from the content, not the name' }),
    name: Type.Optional(Type.String({ maxLength: FILE_LIMITS.name, description: 'default: the file name' })),
    description: Type.Optional(Type.String({ maxLength: FILE_LIMITS.description })),
    tags: Type.Optional(Type.String({ description: `comma-separated, up to ${FILE_LIMITS.tags} of up to ${FILE_LIMITS.tag} characters` })),
    file_category: Type.Optional(Category),
  },
  { required: ['file'], 'x-multipart': true },
);

export const FilePatchBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    file_category: Type.Optional(Category),
  },
  { additionalProperties: false, minProperties: 1, description: 'Writable: name, description, tags, file_category.' },
);

export const FileListQuery = Type.Object({
  ...pageQuery(),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'case-insensitive substring of the name' })),
  mimetype: Type.Optional(Type.String({ description: 'comma-separated; "image/*" matches a family' })),
  min_size: Type.Optional(Type.Number({ minimum: 0, description: 'bytes' })),
  order_by: Type.Optional(StringEnum(['created_at', 'updated_at', 'name', 'size'] as const, { default: 'created_at' })),
  order: sortOrder,
});
