import { startServer, type ServeOptions } from './serve.js';

// `fos serve`: start, announce, save the first-start key as the CLI's `local` profile, and
// shut down cleanly on SIGINT/SIGTERM.
export async function runServe(opts: ServeOptions & { logLevel?: string }) {
  const server = await startServer({ ...opts, logger: { level: opts.logLevel ?? 'info' } });
  const err = process.stderr;
  if (server.bootstrap) {
    const { token, teamName } = server.bootstrap;
    err.write(`\nFirst start: created fulfiller team "${teamName}" and an ADMIN key (rate tier 4: 3000 requests a minute).\n`);
    err.write(`API key (shown once): ${token}\n`);
    try {
      const { saveProfile } = await import('../cli/config.js');
      saveProfile('local', { base_url: server.url, api_key: token }, { makeCurrent: true });
      err.write(`Saved as the CLI profile "local": try \`npx fos products list\` (or \`fos …\` after \`npm link\`).\n\n`);
    } catch (e) {
      err.write(`Could not save the CLI profile: ${(e as Error).message}\n\n`);
    }
  }
  if (opts.demo) err.write('Demo warehouse loaded (--demo): products, stock and orders ready to fulfil.\n');
  err.write(`fos serve listening on ${server.url} (${server.db.provider})\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
