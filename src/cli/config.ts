import { chmodSync, statSync } from 'node:fs';
import { configFilePath, readConfigFile, writeConfigFile } from './config-file.js';
import { AuthError, UsageError } from './errors.js';
import { normalizeBaseUrl, validateProfileName, type ConfigData, type Format, type Profile } from './profile.js';

export * from './profile.js';

/**
 * Saved profiles and settings, in `config.json` in the user's config directory (see config-file.ts;
 * `$FOS_CONFIG_DIR/config.json` when that variable is set, for tests). The file is written
 * with mode 0600: it holds API keys.
 *
 *   { "current_profile": "local",
 *     "profiles": { "local": { "base_url": "http://127.0.0.1:7070/v1", "api_key": "fos_…" } },
 *     "default_format": "table" }
 *
 * Which profile a command uses: `--profile` flag > `FOS_PROFILE` > current_profile.
 * Then `--base-url` flag > `FOS_BASE_URL` > the profile's base_url, and `FOS_API_KEY` > its api_key.
 */
export type Env = Record<string, string | undefined>;

export const CONFIG_FILE_MODE = 0o600;

export interface ResolveOptions {
  /** The `--profile` flag. */
  profile?: string;
  /** The `--base-url` flag. */
  baseUrl?: string;
}

export interface ResolvedProfile {
  /** The profile in use, if any (credentials may come from the environment alone). */
  name?: string;
  base_url: string;
  api_key: string;
  source: { base_url: 'flag' | 'env' | 'profile'; api_key: 'env' | 'profile' };
}

export class ConfigStore {
  /** Absolute path of the config file. */
  readonly path: string;

  constructor(private readonly env: Env = process.env) {
    this.path = configFilePath(env.FOS_CONFIG_DIR);
    this.data(); // as conf did: a missing file's directory is created, a corrupt file throws here
  }

  /** The file's content, read again on every call (another fos process may have written it). */
  data(): ConfigData {
    return readConfigFile<ConfigData>(this.path);
  }

  profiles(): Record<string, Profile> {
    return { ...(this.data().profiles ?? {}) };
  }

  currentProfileName(): string | undefined {
    return this.data().current_profile;
  }

  defaultFormat(): Format | undefined {
    return this.data().default_format;
  }

  /** The profile a command acts on: flag > FOS_PROFILE > current_profile (may not exist yet). */
  selectedProfileName(flag?: string): string | undefined {
    return flag || this.env.FOS_PROFILE || this.currentProfileName();
  }

  saveProfile(name: string, profile: Profile, opts: { makeCurrent?: boolean } = {}): void {
    validateProfileName(name);
    const data = this.data();
    const profiles = { ...(data.profiles ?? {}), [name]: { base_url: normalizeBaseUrl(profile.base_url), api_key: profile.api_key } };
    const makeCurrent = opts.makeCurrent || !data.current_profile;
    this.write({ ...data, profiles, ...(makeCurrent ? { current_profile: name } : {}) });
  }

  /** Changes one field of a profile, creating the profile if needed. */
  setProfileField(name: string, key: keyof Profile, value: string): void {
    validateProfileName(name);
    const data = this.data();
    const existing = data.profiles?.[name] ?? { base_url: '', api_key: '' };
    const updated = { ...existing, [key]: key === 'base_url' ? normalizeBaseUrl(value) : value };
    this.write({
      ...data,
      profiles: { ...(data.profiles ?? {}), [name]: updated },
      current_profile: data.current_profile ?? name,
    });
  }

  /** Removes a profile; when it was the current one, no profile is current afterwards. */
  deleteProfile(name: string): void {
    const data = this.data();
    if (!data.profiles?.[name]) throw this.unknownProfile(name);
    const { [name]: _gone, ...profiles } = data.profiles;
    const { current_profile: current, ...rest } = data;
    this.write({ ...rest, profiles, ...(current && current !== name ? { current_profile: current } : {}) });
  }

  /** Forgets a profile's API key (`fos logout`), keeping its base URL. */
  removeApiKey(name: string): void {
    const data = this.data();
    const profile = data.profiles?.[name];
    if (!profile) throw this.unknownProfile(name);
    this.write({ ...data, profiles: { ...data.profiles, [name]: { ...profile, api_key: '' } } });
  }

  /**
   * Saves the key a `fos serve` made for its operator without touching another server's key:
   * `local` when free or already this URL's, else `local-<port>` (then `-2`, `-3`…). It becomes
   * current only when no profile is, or the current one is this same server.
   */
  saveServerProfile(baseUrl: string, apiKey: string): { name: string; current: boolean; replaced: boolean } {
    const url = normalizeBaseUrl(baseUrl);
    const profiles = this.profiles();
    const port = new URL(url).port || '80';
    const candidates = ['local', `local-${port}`, ...Array.from({ length: 98 }, (_, i) => `local-${port}-${i + 2}`)];
    const name = candidates.find((n) => !profiles[n] || profiles[n].base_url === url) ?? `local-${Date.now()}`;
    const replaced = Boolean(profiles[name]);
    const currentName = this.currentProfileName();
    const current = !currentName || !profiles[currentName] || profiles[currentName].base_url === url || currentName === name;
    this.saveProfile(name, { base_url: url, api_key: apiKey }, { makeCurrent: current });
    return { name, current, replaced };
  }

  /**
   * Saves the key of a `fos serve --demo` on its own database as the profile `demo` (issue 35):
   * never `local`, whose key is the user's own server's. It becomes current only when no
   * profile is (a first run: `npm start`, then `fos products list`), or `demo` already was.
   */
  saveDemoProfile(baseUrl: string, apiKey: string): { name: string; current: boolean; replaced: boolean } {
    const name = 'demo';
    const profiles = this.profiles();
    const currentName = this.currentProfileName();
    const current = !currentName || !profiles[currentName] || currentName === name;
    this.saveProfile(name, { base_url: baseUrl, api_key: apiKey }, { makeCurrent: current });
    return { name, current, replaced: Boolean(profiles[name]) };
  }

  /** Removes a profile if it still holds this key (a stopping demo server's own; not one saved since). */
  forgetProfileKey(name: string, apiKey: string): boolean {
    if (this.profiles()[name]?.api_key !== apiKey) return false;
    this.deleteProfile(name);
    return true;
  }

  useProfile(name: string): void {
    if (!this.profiles()[name]) throw this.unknownProfile(name);
    this.write({ ...this.data(), current_profile: name });
  }

  setDefaultFormat(format: Format | undefined): void {
    const { default_format: _old, ...rest } = this.data();
    this.write(format ? { ...rest, default_format: format } : rest);
  }

  /** Credentials for a command, applying flags and environment overrides (see class comment). */
  resolve(opts: ResolveOptions = {}): ResolvedProfile {
    const explicit = opts.profile || this.env.FOS_PROFILE;
    const name = this.selectedProfileName(opts.profile);
    const profile = name ? this.profiles()[name] : undefined;
    if (explicit && !profile) throw this.unknownProfile(explicit);

    const baseUrl = opts.baseUrl || this.env.FOS_BASE_URL || profile?.base_url;
    const apiKey = this.env.FOS_API_KEY || profile?.api_key;
    if (!baseUrl || !apiKey) {
      const missing = !baseUrl ? 'no base URL' : 'no API key';
      throw new AuthError(`not logged in (${missing}): run \`fos login\`, or set FOS_BASE_URL and FOS_API_KEY`);
    }
    return {
      name: profile ? name : undefined,
      base_url: normalizeBaseUrl(baseUrl),
      api_key: apiKey,
      source: {
        base_url: opts.baseUrl ? 'flag' : this.env.FOS_BASE_URL ? 'env' : 'profile',
        api_key: this.env.FOS_API_KEY ? 'env' : 'profile',
      },
    };
  }

  private unknownProfile(name: string): UsageError {
    const known = Object.keys(this.profiles());
    return new UsageError(
      `profile "${name}" not found (${known.length ? `known: ${known.join(', ')}` : 'no profiles saved'}); run \`fos login --profile ${name}\``,
    );
  }

  private write(data: ConfigData): void {
    writeConfigFile(this.path, data, CONFIG_FILE_MODE);
    // The mode applies when the file is created (and umask may narrow it); make sure it is 0600.
    if ((statSync(this.path).mode & 0o777) !== CONFIG_FILE_MODE) chmodSync(this.path, CONFIG_FILE_MODE);
  }
}

/**
 * Saves a profile (used by `fos login` and by the server's first start, which saves `local`).
 * Synchronous. Honours FOS_CONFIG_DIR from `env`.
 */
export function saveProfile(name: string, profile: Profile, opts: { makeCurrent?: boolean } = {}, env: Env = process.env): void {
  new ConfigStore(env).saveProfile(name, profile, opts);
}
