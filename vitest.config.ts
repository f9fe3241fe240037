import { defineConfig } from 'vitest/config';

// Default suite (`npm test`): everything under test/ on SQLite, except test/pg/** (needs a
// PostgreSQL server; `npm run test:pg`, config in vitest.pg.config.ts). test/e2e/** spawns the
// built CLI, so run `npm run build` first. CI machines have 2 cores: at most 2 test processes.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/pg/**', '**/node_modules/**'],
    pool: 'forks',
    // One process per worker runs many files (isolate: false): the app's modules, Prisma's client
    // and Fastify load once per worker instead of once per file (that loading was ~1.2 s of CPU a
    // file). Files restore what they change (environment variables, process-wide settings).
    poolOptions: { forks: { minForks: 1, maxForks: 2, isolate: false } },
    // As the PostgreSQL suite's: a test that spawns several CLI processes or servers took over 30 s
    // on a shared, busy 2-core machine; a limit only shortens how long a hang takes to report.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
