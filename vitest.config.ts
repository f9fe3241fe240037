import { defineConfig } from 'vitest/config';

// Default suite: everything under test/ except test/pg/** (needs a PostgreSQL server;
// run it with `npm run test:pg`, config in vitest.pg.config.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/pg/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
