#!/usr/bin/env node
// fos: command-line client for the Fulfillment Operations Public API, and its server (`fos serve`).
// The CLI is compiled to dist/ (npx tsc -p .).
let main;
try {
  main = await import('../dist/cli/main.js');
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
    process.stderr.write('fos: dist/ is missing; build it first with `npx tsc -p .`\n');
    process.exit(1);
  }
  throw err;
}
process.exitCode = await main.run(process.argv);
