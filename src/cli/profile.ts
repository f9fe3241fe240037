import { UsageError } from './errors.js';

/**
 * Pure profile and settings values (no conf import, so commands can use them without loading
 * the config store). The store itself is config.ts.
 */
export interface Profile {
  base_url: string;
  api_key: string;
}

export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

/** What the config file holds. */
export interface ConfigData {
  current_profile?: string;
  profiles?: Record<string, Profile>;
  /** Output format on a terminal when no --format/--json is given. */
  default_format?: Format;
}

/** Keys `fos config get|set` understands: per-profile ones and global ones. */
export const PROFILE_KEYS = ['base_url', 'api_key'] as const;
export const GLOBAL_KEYS = ['default_format', 'current_profile'] as const;
export const CONFIG_KEYS = [...PROFILE_KEYS, ...GLOBAL_KEYS] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

const PROFILE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function validateProfileName(name: string): string {
  if (!PROFILE_NAME_RE.test(name)) {
    throw new UsageError(`invalid profile name "${name}": use letters, digits, "-" and "_" (max 64)`);
  }
  return name;
}

/**
 * Normalises a base URL: http(s) only, no trailing slash, ending with /v1 (appended if missing).
 * `http://host:7070` and `http://host:7070/v1/` both give `http://host:7070/v1`; without a scheme,
 * `localhost:7070` gives `http://localhost:7070/v1` and `fos.example.com` `https://fos.example.com/v1`.
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  let text = input.trim();
  // `localhost:7070` or `fos.example.com`: no scheme typed. http for this machine and private
  // networks (where `fos serve` runs without TLS), https elsewhere.
  if (text && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const local = /^(localhost|127\.|0\.0\.0\.0|\[::1\]|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/i.test(text);
    text = `${local ? 'http' : 'https'}://${text}`;
  }
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid base URL "${input}": expected e.g. http://127.0.0.1:7070/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`invalid base URL "${input}": only http and https are supported`);
  }
  if (url.search || url.hash) throw new UsageError(`invalid base URL "${input}": no query or fragment allowed`);
  let path = url.pathname.replace(/\/+$/, '');
  if (!/\/v1$/.test(path)) path += '/v1';
  return `${url.origin}${path}`;
}

export function validateFormat(value: string): Format {
  if (!(FORMATS as readonly string[]).includes(value)) {
    throw new UsageError(`invalid format "${value}": allowed values are ${FORMATS.join(', ')}`);
  }
  return value as Format;
}
