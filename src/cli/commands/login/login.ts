import { Command } from 'commander';
import { redactToken } from '../../../client/redact.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { printRecord } from '../../output/print.js';
import { normalizeBaseUrl, validateProfileName } from '../../profile.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput, response } from '../../output/shape.js';
import type { Static } from 'typebox';
import type { MeSchema } from '../../../contract/access.js';

/** What GET /v1/me answers (src/server/routes/me.ts). */
type Me = Partial<Pick<Static<typeof MeSchema>, 'key_id' | 'key_name' | 'team_name' | 'team_kind' | 'power_role'>>;

const TOKEN_RE = /^fos_[A-Za-z0-9]{32}_[A-Za-z0-9]{6}$/;

export default function login(ctx: Context): Command {
  const cmd = new Command('login')
    .description('Save a base URL and API key as a profile, after checking them with GET /v1/me')
    .option('--api-key <key>', 'the API key (lands in shell history: prefer the prompt or --with-token)')
    .option('--with-token', 'read the API key from stdin')
    .action(async (opts: { apiKey?: string; withToken?: boolean }) => {
      const store = await ctx.config.load();
      // Like every command, login acts on the selected profile (so after `fos serve` saved
      // "local", a plain `fos login` refreshes it and offers its URL), else on "default".
      const name = validateProfileName(store.selectedProfileName(ctx.options.profile) || 'default');
      const existing = store.profiles()[name];

      let baseUrl = ctx.options.baseUrl || ctx.env.FOS_BASE_URL;
      if (!baseUrl) {
        baseUrl = ctx.io.canPrompt
          ? await ctx.prompt.input({
              message: 'Base URL of the fos API:',
              flag: '--base-url',
              // `fos serve`'s own address when nothing is saved yet.
              default: existing?.base_url ?? 'http://127.0.0.1:7070',
              validate: (v) => {
                try {
                  normalizeBaseUrl(v);
                  return true;
                } catch (err) {
                  return (err as Error).message;
                }
              },
            })
          : existing?.base_url;
      }
      if (!baseUrl) throw new UsageError('base URL required: pass --base-url (e.g. http://127.0.0.1:7070)');
      const base_url = normalizeBaseUrl(baseUrl);

      if (opts.apiKey && opts.withToken) throw new UsageError('pass either --api-key or --with-token, not both');
      let apiKey = opts.apiKey;
      if (opts.withToken) apiKey = (await ctx.io.readStdin()).trim();
      else if (!apiKey && ctx.io.canPrompt) apiKey = (await ctx.prompt.password({ message: 'API key:', flag: '--api-key' })).trim();
      if (!apiKey) throw new UsageError('API key required: pass --api-key, or --with-token with the key on stdin');
      if (!TOKEN_RE.test(apiKey)) ctx.io.warn('this does not look like a fos API key (fos_<secret>_<checksum>)');

      const me = await ctx.clientFor({ base_url, api_key: apiKey }).get<Me>('/me');
      // Another key saved there (say the ADMIN key `fos serve` made for "local", shown once) is
      // not replaced without a yes: a question on a terminal, else --yes (issue 35).
      if (existing?.api_key && existing.api_key !== apiKey && !ctx.options.yes) {
        const question = `Profile "${name}" holds another key (${redactToken(existing.api_key)} for ${existing.base_url}); replace it?`;
        if (!ctx.io.canPrompt) {
          throw new UsageError(
            `profile "${name}" already holds a key (${redactToken(existing.api_key)}): pass --yes to replace it, or --profile <name> to save this one beside it`,
          );
        }
        if (!(await ctx.prompt.confirm({ message: question, flag: '--yes', default: false })))
          throw new CliError('cancelled', ExitCode.ERROR);
      }
      store.saveProfile(name, { base_url, api_key: apiKey }, { makeCurrent: true });

      const who = me?.key_name ? `"${me.key_name}" (${me.power_role ?? 'key'}, team ${me.team_name ?? '?'})` : 'a valid key';
      ctx.io.info(`Logged in to ${base_url} as ${who}; saved profile "${name}" (${redactToken(apiKey)}) and made it current.`);
      if (ctx.env.FOS_API_KEY) ctx.io.warn('FOS_API_KEY is set and overrides the saved key');
      if (ctx.options.json !== undefined || ctx.options.format) await printRecord(ctx, me);
    });
  declareOutput(
    cmd,
    response(async () => (await import('../../../contract/access.js')).MeSchema),
  );
  return withExamples(cmd, [
    'fos login                                    # prompts for URL and key',
    'fos login --base-url localhost:7070 --with-token < key.txt   # http:// assumed for local addresses',
    'fos login --profile prod --base-url https://fos.example.com --api-key "$KEY"',
    "fos login --with-token --yes < new-key.txt     # replace the current profile's key without asking",
  ]);
}
