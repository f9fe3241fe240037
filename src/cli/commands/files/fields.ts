import type { FieldSpec } from '../../shared/flags.js';

/** Writable on update (name, description, tags, file_category); create adds url, mimetype, size. */
export const FILE_UPDATE_FIELDS: FieldSpec[] = [
  { key: 'name', description: 'file name', required: true },
  { key: 'description', description: 'free text' },
  { key: 'tags', flag: '--tag', type: 'list', description: 'tags (comma-separated or repeated)' },
  { key: 'file_category', arg: 'category', description: 'category, e.g. DOCUMENT, IMAGE, LABEL, INVOICE' },
];

export const FILE_CREATE_FIELDS: FieldSpec[] = [
  ...FILE_UPDATE_FIELDS,
  { key: 'url', description: 'http(s) URL where the file is stored', required: true },
  { key: 'mimetype', description: 'MIME type, e.g. application/pdf', required: true },
  { key: 'size', type: 'int', min: 0, arg: 'bytes', description: 'size in bytes', required: true },
];
