import type { FastifyInstance } from 'fastify';

// Not yet implemented: routes for this resource are added by their issue.
export default async function routes(_app: FastifyInstance) {}
