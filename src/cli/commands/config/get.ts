import { Argument, Command } from 'commander';
import { redactToken } from '../../../client/redact.js';
import type { ConfigStore } from '../../config.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printRecord } from '../../output/print.js';
import { CONFIG_KEYS, type ConfigKey } from '../../profile.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput, local } from '../../output/shape.js';

/** A config value as shown to the user (the API key is always redacted). */
export function configValue(store: ConfigStore, key: ConfigKey, profileFlag?: string): string | undefined {
  if (key === 'default_format') return store.defaultFormat();
  if (key === 'current_profile') return store.currentProfileName();
  const name = store.selectedProfileName(profileFlag);
  const profile = name ? store.profiles()[name] : undefined;
  if (!profile) throw new UsageError(name ? `profile "${name}" not found` : 'no profile: run `fos login` first');
  return key === 'api_key' ? redactToken(profile.api_key) : profile.base_url;
}

export default function configGet(ctx: Context): Command {
  const cmd = new Command('get')
    .description('Print a setting (base_url and api_key are per profile; the key is redacted)')
    .addArgument(new Argument('[key]', 'setting; all of them when omitted').choices(CONFIG_KEYS))
    .action(async (key: ConfigKey | undefined) => {
      const store = await ctx.config.load();
      if (key) {
        const value = configValue(store, key, ctx.options.profile);
        if (ctx.options.json !== undefined) await printRecord(ctx, { [key]: value ?? null });
        else if (value !== undefined) await ctx.io.out(`${value}\n`);
        return;
      }
      const name = store.selectedProfileName(ctx.options.profile);
      const profile = name ? store.profiles()[name] : undefined;
      await printRecord(ctx, {
        profile: name ?? null,
        base_url: profile?.base_url ?? null,
        api_key: profile ? redactToken(profile.api_key) : null,
        default_format: store.defaultFormat() ?? null,
        current_profile: store.currentProfileName() ?? null,
        config_file: store.path,
      });
    });
  declareOutput(cmd, local('reads the config file'));
  return withExamples(cmd, ['fos config get', 'fos config get base_url --profile prod']);
}
