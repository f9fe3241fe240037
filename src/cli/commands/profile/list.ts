import { Command } from 'commander';
import { redactToken } from '../../../client/redact.js';
import type { Context } from '../../context.js';
import { printList } from '../../output/print.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput, local } from '../../output/shape.js';

export default function profileList(ctx: Context): Command {
  const cmd = new Command('list').description('List saved profiles (keys redacted)').action(async () => {
    const store = await ctx.config.load();
    const current = store.currentProfileName();
    const rows = Object.entries(store.profiles()).map(([name, p]) => ({
      name,
      current: name === current,
      base_url: p.base_url,
      api_key: redactToken(p.api_key),
    }));
    await printList(ctx, rows, { columns: ['name', 'current', 'base_url', 'api_key'] });
    for (const v of ['FOS_PROFILE', 'FOS_BASE_URL', 'FOS_API_KEY']) {
      if (ctx.env[v]) ctx.io.warn(`${v} is set and overrides the saved profiles`);
    }
  });
  declareOutput(cmd, local('reads the saved profiles'));
  return withExamples(cmd, ['fos profile list', 'fos profile list --json name,base_url']);
}
