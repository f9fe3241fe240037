import { Argument, Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { CONFIG_KEYS, validateFormat, type ConfigKey } from '../../profile.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput, local } from '../../output/shape.js';

export default function configSet(ctx: Context): Command {
  const cmd = new Command('set')
    .description('Change a setting (base_url/api_key of the selected profile; default_format; current_profile)')
    .addArgument(new Argument('<key>', 'setting').choices(CONFIG_KEYS))
    .argument('<value>', 'new value ("" unsets default_format)')
    .action(async (key: ConfigKey, value: string) => {
      const store = await ctx.config.load();
      switch (key) {
        case 'default_format':
          store.setDefaultFormat(value === '' ? undefined : validateFormat(value));
          break;
        case 'current_profile':
          store.useProfile(value);
          break;
        default: {
          const name = store.selectedProfileName(ctx.options.profile) ?? 'default';
          if (!value) throw new UsageError(`${key} cannot be empty`);
          store.setProfileField(name, key, value);
          if (key === 'api_key') ctx.io.warn('the key was saved without checking it; `fos login` verifies keys');
          ctx.io.info(`${key} saved in profile "${name}"`);
          return;
        }
      }
      ctx.io.info(`${key} saved`);
    });
  declareOutput(cmd, local('writes the config file; prints no record'));
  return withExamples(cmd, ['fos config set default_format csv', 'fos config set base_url https://fos.example.com --profile prod']);
}
