import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import { IdParams } from '../../../contract/common.js';
import { FileCreateBody, FileListQuery, FileListSchema, FilePatchBody, FileSchema, FileUploadForm } from '../../../contract/files.js';
import { createFile, deleteFile, fileView, getFile, updateFile } from '../../../domain/files/index.js';
import { listFiles } from '../../../domain/files/index.js';
import { uploadFile } from '../../../domain/files/index.js';
import { DomainError, invalid, notFound } from '../../../domain/errors.js';

const tags = ['Files'];
const read = { permission: 'READ_FILES', family: 'ops' } as const;
const write = { permission: 'WRITE_FILES', family: 'ops' } as const;
const FileParams = IdParams('file_id');
const binary = (description: string) => ({ 200: { description, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } } });

/** Files (spec 4.10; docs/files.md): uploads kept by fos, or records of files elsewhere by URL. */
export default async function routes(app: FastifyInstance) {
  // Uploads: one file part and a few short fields; the part streams (below). Registered in this
  // plugin only: its hooks (an async onRequest and onResponse) then run for these routes, not for
  // every request of the API.
  const { maxUploadBytes } = app.files;
  await app.register(multipart, { limits: { fileSize: maxUploadBytes, files: 1, fields: 10, fieldSize: 4096, parts: 12 } });
  app.get(
    '/v1/ops/files',
    {
      config: read,
      schema: {
        operationId: 'listFiles',
        tags,
        summary: 'List files (search, mimetype, min_size, sort)',
        querystring: FileListQuery,
        response: { 200: FileListSchema },
      },
    },
    async (request) => {
      const page = await listFiles(app.db, request.principal.teamId, request.query as Static<typeof FileListQuery>);
      return {
        data: page.data.map((f) => ({ ...fileView(f), supported_actions: [{ action: 'VIEW_FILE' as const }] })),
        meta: page.meta,
      };
    },
  );

  app.post(
    '/v1/ops/files',
    {
      config: write,
      schema: {
        operationId: 'createFile',
        tags,
        summary: 'Upload a file (multipart/form-data), or register one by URL (JSON)',
        description:
          'multipart/form-data: one `file` part (its type is read from its bytes; executables are refused with 415; ' +
          "larger than the server's limit: 413) and optional name, description, tags (comma-separated), file_category. " +
          'The bytes are served at url (GET /v1/ops/files/{id}/content) to the owning team only. Images are processed in the ' +
          'background: thumbnail_url and preview_blur_hash, processing_status PENDING -> READY or FAILED; event file.processed. ' +
          'application/json: a record of a file kept elsewhere { name, url, mimetype, size, … }.',
        body: { content: { 'multipart/form-data': { schema: FileUploadForm }, 'application/json': { schema: FileCreateBody } } },
        response: { 201: FileSchema },
      },
    },
    async (request, reply) => {
      const teamId = request.principal.teamId;
      if (!request.isMultipart()) {
        // No body at all (nor a content type) reaches here unvalidated: Fastify picks the schema by content type.
        if (!request.headers['content-type']) {
          throw new DomainError(
            'unsupported-media-type',
            'Send the file as multipart/form-data, or a record of a file kept elsewhere as application/json.',
          );
        }
        if (request.body === undefined || request.body === null)
          throw invalid('body', 'is required: a JSON record { name, url, … } or a multipart upload');
        return reply.code(201).send(fileView(await createFile(app.db, teamId, request.body as Static<typeof FileCreateBody>)));
      }
      const fields: Record<string, string> = {};
      let file;
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (typeof part.value !== 'string') throw invalid(`body.${part.fieldname}`, 'must be text');
          fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'file') throw invalid(`body.${part.fieldname}`, 'the file part must be named file');
        // Fields sent after the file are not read: the bytes are stored as they arrive.
        file = await uploadFile(
          app.db,
          app.files.storage,
          teamId,
          { filename: part.filename, stream: part.file, fields },
          `${request.protocol}://${request.host}`,
          app.files.maxUploadBytes,
        );
      }
      if (!file) throw invalid('body.file', 'is required: a part named file with the bytes');
      if (file.processing_status === 'PENDING') void app.files.processor.kick();
      return reply.code(201).send(fileView(file));
    },
  );

  app.get(
    '/v1/ops/files/:file_id',
    {
      config: read,
      schema: { operationId: 'getFile', tags, summary: 'Get a file', params: FileParams, response: { 200: FileSchema } },
    },
    async (request) => {
      const { file_id } = request.params as Static<typeof FileParams>;
      return fileView(await getFile(app.db, request.principal.teamId, file_id));
    },
  );

  const serve = async (reply: FastifyReply, teamId: string, id: string, thumbnail: boolean) => {
    const f = await getFile(app.db, teamId, id);
    if (!f.storage_key || (thumbnail && !f.thumbnail_url)) throw notFound(thumbnail ? 'Thumbnail of file' : 'Uploaded content of file', id);
    const opened = await app.files.storage.open(thumbnail ? `${f.storage_key}.thumb.webp` : f.storage_key);
    if (!opened) throw notFound('Stored bytes of file', id);
    const name = encodeURIComponent(thumbnail ? `${f.name}.thumb.webp` : f.name);
    return reply
      .type(thumbnail ? 'image/webp' : f.mimetype)
      .header('content-length', opened.size)
      .header('content-disposition', `${thumbnail ? 'inline' : 'attachment'}; filename*=UTF-8''${name}`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(opened.stream);
  };

  app.get(
    '/v1/ops/files/:file_id/content',
    {
      config: read,
      schema: {
        operationId: 'downloadFile',
        tags,
        summary: 'The bytes of an uploaded file (its url)',
        params: FileParams,
        response: binary('The file, with the type read from its content'),
      },
    },
    async (request, reply) => serve(reply, request.principal.teamId, (request.params as Static<typeof FileParams>).file_id, false),
  );

  app.get(
    '/v1/ops/files/:file_id/thumbnail',
    {
      config: read,
      schema: {
        operationId: 'getFileThumbnail',
        tags,
        summary: 'The thumbnail of an uploaded image (its thumbnail_url; WebP)',
        params: FileParams,
        response: binary('A WebP image of at most 320 px'),
      },
    },
    async (request, reply) => serve(reply, request.principal.teamId, (request.params as Static<typeof FileParams>).file_id, true),
  );

  app.patch(
    '/v1/ops/files/:file_id',
    {
      config: write,
      schema: {
        operationId: 'updateFile',
        tags,
        summary: "Change a file's name, description, tags or file_category",
        params: FileParams,
        body: FilePatchBody,
        response: { 200: FileSchema },
      },
    },
    async (request) => {
      const { file_id } = request.params as Static<typeof FileParams>;
      return fileView(await updateFile(app.db, request.principal.teamId, file_id, request.body as Static<typeof FilePatchBody>));
    },
  );

  app.delete(
    '/v1/ops/files/:file_id',
    {
      config: write,
      schema: {
        operationId: 'deleteFile',
        tags,
        summary: 'Delete a file and its stored bytes',
        params: FileParams,
        response: { 204: { type: 'null', description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      await deleteFile(app.db, app.files.storage, request.principal.teamId, (request.params as Static<typeof FileParams>).file_id);
      return reply.code(204).send();
    },
  );
}
