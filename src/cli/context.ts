import { ApiClient, type RetryNotice } from '../client/api-client.js';
import type { RetryPolicy } from '../client/retry.js';
import type { Credentials } from '../client/types.js';
import { VERSION } from '../version.js';
import type { ConfigStore, Env } from './config.js';
import { systemIOStreams, type IOStreams } from './iostreams.js';
import type { Format, Profile } from './profile.js';
import { createPrompter, type PromptBackend, type Prompter } from './prompt.js';

/**
 * The Context every command builder receives (the GitHub CLI's Factory): streams, environment,
 * prompts, config and the API client. Tests build one with fake streams, a temp config dir and
 * a scripted prompt backend — no module mocks.
 */

/** The global flags, filled in by main.ts before each action runs. */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  verbose?: boolean;
  /** `--json` alone is `true`; `--json id,name` gives the field list. */
  json?: string | boolean;
  format?: Format;
  /** `--jq <expr>`: filter the JSON output through jq. */
  jq?: string;
  /** `--template <text>`: print each record through a Mustache template. */
  template?: string;
  /** false with `--no-pager`. */
  pager?: boolean;
  /** false with `--no-color`. */
  color?: boolean;
  yes?: boolean;
}

/** The config store, loaded on first use (conf is not imported for `fos --help`). */
export interface LazyConfig {
  load(): Promise<ConfigStore>;
}

export interface Context {
  io: IOStreams;
  env: Env;
  prompt: Prompter;
  config: LazyConfig;
  options: GlobalOptions;
  /** Client for the selected profile (flags and env applied); created once per run. */
  client(): ApiClient;
  /** Client for explicit credentials (login verifies a key before saving it). */
  clientFor(profile: Profile): ApiClient;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

export interface ContextInit {
  io?: IOStreams;
  env?: Env;
  prompt?: Prompter;
  /** Answers questions for the default Prompter (which keeps the non-interactive guard). */
  promptBackend?: PromptBackend;
  config?: ConfigStore;
  retry?: Partial<RetryPolicy>;
}

export function createContext(init: ContextInit = {}): Context {
  const env = init.env ?? process.env;
  const io = init.io ?? systemIOStreams(env);
  const prompt = init.prompt ?? createPrompter(io, init.promptBackend);
  let store: Promise<ConfigStore> | undefined = init.config ? Promise.resolve(init.config) : undefined;
  const config: LazyConfig = {
    load: () => (store ??= import('./config.js').then((m) => new m.ConfigStore(env))),
  };
  const clients: ApiClient[] = [];
  let selected: ApiClient | undefined;

  const makeClient = (credentials: () => Promise<Credentials>): ApiClient => {
    const client = new ApiClient({
      credentials,
      retry: init.retry,
      userAgent: `fos/${VERSION} node/${process.versions.node}`,
      log: (line) => {
        if (ctx.options.verbose) io.stderr.write(`${io.style('dim', line)}\n`);
      },
      onRetry: (n: RetryNotice) => io.warn(`${n.reason}; retrying in ${(n.delayMs / 1000).toFixed(1)}s (retry ${n.attempt})`),
    });
    clients.push(client);
    return client;
  };

  const ctx: Context = {
    io,
    env,
    prompt,
    config,
    options: {},
    client() {
      selected ??= makeClient(async () => {
        const resolved = (await config.load()).resolve({ profile: ctx.options.profile, baseUrl: ctx.options.baseUrl });
        return { baseUrl: resolved.base_url, apiKey: resolved.api_key };
      });
      return selected;
    },
    clientFor(profile) {
      return makeClient(async () => ({ baseUrl: profile.base_url, apiKey: profile.api_key }));
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
  return ctx;
}
