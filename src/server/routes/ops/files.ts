import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { IdParams } from '../../schemas/common.js';
import { FileCreateBody, FileListQuery, FileListSchema, FilePatchBody, FileSchema } from '../../schemas/files.js';
import { createFile, fileView, getFile, listFiles, updateFile } from '../../../domain/files/files.js';

const tags = ['Files'];
const read = { permission: 'READ_FILES', family: 'ops' } as const;
const write = { permission: 'WRITE_FILES', family: 'ops' } as const;
const FileParams = IdParams('file_id');

/** File records (spec 4.10): metadata and a URL; fos does not receive the bytes. */
export default async function routes(app: FastifyInstance) {
  app.get('/v1/ops/files', {
    config: read,
    schema: {
      operationId: 'listFiles', tags, summary: 'List files (search, mimetype, min_size, sort)',
      querystring: FileListQuery, response: { 200: FileListSchema },
    },
  }, async (request) => {
    const page = await listFiles(app.db, request.principal.teamId, request.query as Static<typeof FileListQuery>);
    return {
      data: page.data.map((f) => ({ ...fileView(f), supported_actions: [{ action: 'VIEW_FILE' as const }] })),
      meta: page.meta,
    };
  });

  app.post('/v1/ops/files', {
    config: write,
    schema: {
      operationId: 'createFile', tags, summary: 'Register a file by URL (no binary upload)',
      body: FileCreateBody, response: { 201: FileSchema },
    },
  }, async (request, reply) => {
    const file = await createFile(app.db, request.principal.teamId, request.body as Static<typeof FileCreateBody>);
    return reply.code(201).send(fileView(file));
  });

  app.get('/v1/ops/files/:file_id', {
    config: read,
    schema: { operationId: 'getFile', tags, summary: 'Get a file', params: FileParams, response: { 200: FileSchema } },
  }, async (request) => {
    const { file_id } = request.params as Static<typeof FileParams>;
    return fileView(await getFile(app.db, request.principal.teamId, file_id));
  });

  app.patch('/v1/ops/files/:file_id', {
    config: write,
    schema: {
      operationId: 'updateFile', tags, summary: 'Change a file\'s name, description, tags or file_category',
      params: FileParams, body: FilePatchBody, response: { 200: FileSchema },
    },
  }, async (request) => {
    const { file_id } = request.params as Static<typeof FileParams>;
    return fileView(await updateFile(app.db, request.principal.teamId, file_id, request.body as Static<typeof FilePatchBody>));
  });
}
