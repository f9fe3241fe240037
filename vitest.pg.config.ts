import { defineConfig } from 'vitest/config';

// PostgreSQL suite (`npm run test:pg`): test/pg/** plus the whole API suite (test/api/**) with
// FOS_TEST_DB=postgres, so every API test also runs on PostgreSQL. Needs a server at
// FOS_TEST_PG_URL (default postgres://root@127.0.0.1:5432/postgres) whose role may CREATE
// DATABASE (each test file makes and drops its own), and Redis at FOS_TEST_REDIS_URL (default
// redis://127.0.0.1:6379) for the shared rate-limit test.
export default defineConfig({
  test: {
    include: ['test/pg/**/*.test.ts', 'test/api/**/*.test.ts'],
    env: { FOS_TEST_DB: 'postgres' },
    // One migrated database per run that freshDb() copies (FOS_TEST_PG_TEMPLATE), dropped at the end.
    globalSetup: ['test/helpers/pg-template.global.ts'],
    pool: 'forks',
    // One process per worker runs many files (isolate: false): the app's modules, Prisma's client
    // and Fastify load once per worker instead of once per file (that loading was ~1.2 s of CPU a
    // file). Files restore what they change (environment variables, process-wide settings).
    poolOptions: { forks: { minForks: 1, maxForks: 2, isolate: false } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
