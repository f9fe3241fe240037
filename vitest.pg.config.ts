import { defineConfig } from 'vitest/config';

// PostgreSQL suite: only test/pg/**. Needs a server at FOS_TEST_PG_URL
// (default postgres://root@127.0.0.1:5432/postgres) whose role may CREATE DATABASE.
export default defineConfig({
  test: {
    include: ['test/pg/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
