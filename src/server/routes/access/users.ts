import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { users } from '../../../domain/users/index.js';
import { CreateUserBody, UserListQuery, UserListSchema, UserSchema } from '../../../contract/users.js';

// People of the caller's team, for ADMIN keys: a person may be granted any permission of the team.

const tags = ['Access'];

export default async function routes(app: FastifyInstance) {
  app.post<{ Body: Static<typeof CreateUserBody> }>(
    '/v1/users',
    {
      config: { permission: null },
      schema: {
        operationId: 'createUser',
        tags,
        summary: "Create a user who belongs to the caller's team (ADMIN keys only)",
        description: 'The password is stored only as a scrypt hash. The email must be unused (409 otherwise).',
        body: CreateUserBody,
        response: { 201: UserSchema },
      },
    },
    async (request, reply) => {
      users.assertAdminKey(request.principal.powerRole);
      const user = await users.createUser(app.db, { ...request.body, team_id: request.principal.teamId }, request.principal.keyId);
      return reply.code(201).send(user);
    },
  );

  app.get<{ Querystring: Static<typeof UserListQuery> }>(
    '/v1/users',
    {
      config: { permission: null },
      schema: {
        operationId: 'listUsers',
        tags,
        summary: "List the users of the caller's team (ADMIN keys only)",
        querystring: UserListQuery,
        response: { 200: UserListSchema },
      },
    },
    async (request) => {
      users.assertAdminKey(request.principal.powerRole);
      return users.listUsers(app.db, request.principal.teamId, request.query);
    },
  );
}
