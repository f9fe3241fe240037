// The files area's door: what code outside src/domain/files/ may import (test/unit/layers.test.ts).
export { createFile, deleteFile, fileView, getFile, updateFile } from './files.js';
export { listFiles } from './list.js';
export { processPendingFiles } from './process.js';
export { S3Storage, parseS3Url } from './s3-storage.js';
export { storageFor, type FileStorage } from './storage.js';
export { uploadFile } from './upload.js';
