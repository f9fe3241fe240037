import type { AppConfig } from '../../../src/server/app.js';
import { testApp, type TestApp } from '../../helpers/app.js';

// A real server on a free loopback port for CLI tests that go through HTTP end to end, with a
// tier-4 key and the environment that points the CLI at it.

export async function cliServer(config: AppConfig = {}): Promise<{ t: TestApp; token: string; env: Record<string, string> }> {
  const t = await testApp(config);
  const { token } = await t.key({ tier: 4 });
  const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  return { t, token, env: { FOS_BASE_URL: `${base}/v1`, FOS_API_KEY: token } };
}
