import type { FastifyInstance } from 'fastify';
import { MeSchema } from '../../contract/access.js';

/** The calling key: lets a client verify a token and learn its team (used by `fos login`). */
export default async function routes(app: FastifyInstance) {
  app.get(
    '/v1/me',
    {
      config: { permission: null },
      schema: { operationId: 'getMe', tags: ['Access'], summary: 'Describe the calling API key', response: { 200: MeSchema } },
    },
    async (request) => {
      const p = request.principal;
      return {
        key_id: p.keyId,
        key_name: p.keyName,
        team_id: p.teamId,
        team_name: p.teamName,
        team_kind: p.teamKind,
        measurement_system: p.measurementSystem,
        power_role: p.powerRole,
        permissions: [...p.permissions].sort(),
        rate_tier: p.tier,
      };
    },
  );
}
