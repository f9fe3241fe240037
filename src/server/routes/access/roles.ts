import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { roles } from '../../../domain/keys/index.js';
import { CreateRoleBody, ListQuery, RoleIdParams, RoleListSchema, RoleSchema, UpdateRoleBody } from '../../../contract/access.js';

// Custom roles of the caller's team (MANAGE_API_KEYS, either team kind). A role change alters
// the permissions of every key holding it, so every change clears the principal cache.

const config = { permission: 'MANAGE_API_KEYS' } as const;
const tags = ['Access'];
type RoleParams = { role_id: string };

export default async function routes(app: FastifyInstance) {
  const changed = <T>(value: T): T => {
    app.principals.invalidate();
    return value;
  };

  app.post<{ Body: Static<typeof CreateRoleBody> }>(
    '/v1/roles',
    {
      config,
      schema: {
        operationId: 'createRole',
        tags,
        summary: 'Create a custom role',
        description: 'Role names are unique within a team (409). A MEMBER caller may only grant permissions it holds.',
        body: CreateRoleBody,
        response: { 201: RoleSchema },
      },
    },
    async (request, reply) => {
      const role = await roles.createRole(app.db, request.principal.teamId, request.body, request.principal);
      return reply.code(201).send(changed(role));
    },
  );

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/v1/roles',
    {
      config,
      schema: {
        operationId: 'listRoles',
        tags,
        summary: "List the team's custom roles (by name)",
        querystring: ListQuery,
        response: { 200: RoleListSchema },
      },
    },
    async (request) => roles.listRoles(app.db, request.principal.teamId, request.query),
  );

  app.get<{ Params: RoleParams }>(
    '/v1/roles/:role_id',
    {
      config,
      schema: {
        operationId: 'getRole',
        tags,
        summary: 'Get a custom role',
        params: RoleIdParams,
        response: { 200: RoleSchema },
      },
    },
    async (request) => roles.getRole(app.db, request.principal.teamId, request.params.role_id),
  );

  app.patch<{ Params: RoleParams; Body: Static<typeof UpdateRoleBody> }>(
    '/v1/roles/:role_id',
    {
      config,
      schema: {
        operationId: 'updateRole',
        tags,
        summary: 'Update a custom role',
        description: 'permissions, when given, replaces the list. Keys holding the role change at once.',
        params: RoleIdParams,
        body: UpdateRoleBody,
        response: { 200: RoleSchema },
      },
    },
    async (request) =>
      changed(await roles.updateRole(app.db, request.principal.teamId, request.params.role_id, request.body, request.principal)),
  );

  app.delete<{ Params: RoleParams }>(
    '/v1/roles/:role_id',
    {
      config,
      schema: {
        operationId: 'deleteRole',
        tags,
        summary: 'Delete a custom role',
        description: 'Keys holding the role lose its permissions at once.',
        params: RoleIdParams,
        response: { 204: { type: 'null', description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      await roles.deleteRole(app.db, request.principal.teamId, request.params.role_id, request.principal);
      changed(null);
      return reply.code(204).send();
    },
  );
}
