import { defineConfig } from 'vitest/config';

// Default suite (`npm test`): everything under test/ on SQLite, except test/pg/** (needs a
// PostgreSQL server; `npm run test:pg`, config in vitest.pg.config.ts). test/e2e/** spawns the
// built CLI, so run `npm run build` first. CI machines have 2 cores: at most 2 test processes.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/pg/**', '**/node_modules/**'],
    pool: 'forks',
    poolOptions: { forks: { minForks: 1, maxForks: 2 } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
