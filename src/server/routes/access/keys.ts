import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { keys } from '../../../domain/keys/index.js';
import {
  CreatedKeySchema,
  CreateKeyBody,
  KeyIdParams,
  KeyListSchema,
  KeyRolesBody,
  KeySchema,
  KeyTierBody,
  ListQuery,
} from '../../../contract/access.js';

// API keys of the caller's team (MANAGE_API_KEYS, either team kind). Every change clears the
// principal cache so it takes effect at once in this process.

const config = { permission: 'MANAGE_API_KEYS' } as const;
const tags = ['Access'];
type KeyParams = { key_id: string };

export default async function routes(app: FastifyInstance) {
  const changed = <T>(value: T): T => {
    app.principals.invalidate();
    return value;
  };

  app.post<{ Body: Static<typeof CreateKeyBody> }>(
    '/v1/keys',
    {
      config,
      schema: {
        operationId: 'createApiKey',
        tags,
        summary: 'Create an API key (the token is shown once)',
        description:
          'A MEMBER key starts with the permissions of the roles in role_ids only (none by default). ' +
          'A MEMBER caller may not create ADMIN keys, set rate_tier above 1, or assign roles granting permissions it lacks.',
        body: CreateKeyBody,
        response: { 201: CreatedKeySchema },
      },
    },
    async (request, reply) => {
      const key = await keys.createKey(app.db, request.principal.teamId, request.body, request.principal);
      return reply.code(201).send(changed(key));
    },
  );

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/v1/keys',
    {
      config,
      schema: {
        operationId: 'listApiKeys',
        tags,
        summary: "List the team's API keys (never their tokens)",
        querystring: ListQuery,
        response: { 200: KeyListSchema },
      },
    },
    async (request) => keys.listKeys(app.db, request.principal.teamId, request.query),
  );

  app.get<{ Params: KeyParams }>(
    '/v1/keys/:key_id',
    {
      config,
      schema: {
        operationId: 'getApiKey',
        tags,
        summary: 'Get an API key (never its token)',
        params: KeyIdParams,
        response: { 200: KeySchema },
      },
    },
    async (request) => keys.getKey(app.db, request.principal.teamId, request.params.key_id),
  );

  app.post<{ Params: KeyParams }>(
    '/v1/keys/:key_id/disable',
    {
      config,
      schema: {
        operationId: 'disableApiKey',
        tags,
        summary: 'Disable an API key (its token stops authenticating)',
        description: 'Idempotent. Other keys are not affected. A key may disable itself.',
        params: KeyIdParams,
        response: { 200: KeySchema },
      },
    },
    async (request) => changed(await keys.disableKey(app.db, request.principal.teamId, request.params.key_id, request.principal)),
  );

  app.delete<{ Params: KeyParams }>(
    '/v1/keys/:key_id',
    {
      config,
      schema: {
        operationId: 'deleteApiKey',
        tags,
        summary: 'Delete an API key',
        description: 'A key cannot delete itself (409).',
        params: KeyIdParams,
        response: { 204: { type: 'null', description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      await keys.deleteKey(app.db, request.principal.teamId, request.params.key_id, request.principal);
      changed(null);
      return reply.code(204).send();
    },
  );

  app.put<{ Params: KeyParams; Body: Static<typeof KeyRolesBody> }>(
    '/v1/keys/:key_id/roles',
    {
      config,
      schema: {
        operationId: 'setApiKeyRoles',
        tags,
        summary: 'Replace the custom roles of an API key',
        description: "The key's permissions become the deduplicated union of these roles' permissions (ADMIN keys hold all anyway).",
        params: KeyIdParams,
        body: KeyRolesBody,
        response: { 200: KeySchema },
      },
    },
    async (request) =>
      changed(await keys.setKeyRoles(app.db, request.principal.teamId, request.params.key_id, request.body.role_ids, request.principal)),
  );

  app.put<{ Params: KeyParams; Body: Static<typeof KeyTierBody> }>(
    '/v1/keys/:key_id/tier',
    {
      config,
      schema: {
        operationId: 'setApiKeyTier',
        tags,
        summary: 'Set the rate tier of an API key',
        description: 'Only an ADMIN key may set a tier above 1.',
        params: KeyIdParams,
        body: KeyTierBody,
        response: { 200: KeySchema },
      },
    },
    async (request) =>
      changed(await keys.setKeyTier(app.db, request.principal.teamId, request.params.key_id, request.body.tier, request.principal)),
  );
}
