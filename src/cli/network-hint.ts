import type { NetworkError } from '../client/errors.js';
import type { Context } from './context.js';

/**
 * The one line for an unreachable server: which URL, where the CLI got it (flag, environment or
 * profile), and what most likely went wrong — for this machine's addresses, whether `fos serve`
 * seems to be running (nothing listening there).
 */
export async function networkMessage(ctx: Context, err: NetworkError): Promise<string> {
  const url = new URL(err.url);
  let source: string;
  if (ctx.options.baseUrl) source = '--base-url';
  else if (ctx.env.FOS_BASE_URL) source = '$FOS_BASE_URL';
  else {
    const name = await ctx.config
      .load()
      .then((c) => c.selectedProfileName(ctx.options.profile))
      .catch(() => undefined);
    source = name ? `profile "${name}"` : 'no profile';
  }
  const local = /^(127\.|localhost$|\[::1\]$|0\.0\.0\.0$)/.test(url.hostname);
  let why: string;
  if (err.code === 'ECONNREFUSED' && local) {
    why = `connection refused: fos serve does not seem to be running on port ${url.port || '80'} (start it with \`fos serve\` or \`npm start\`, or pick another profile: fos profile list)`;
  } else if (err.code === 'ECONNREFUSED') why = 'connection refused: is the server running, and is the base URL right?';
  else if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') why = `the host name ${url.hostname} does not resolve`;
  else if (/TIMEOUT|ETIMEDOUT/.test(err.code)) why = 'no answer in time (timeout)';
  else why = err.message.replace(/^could not reach [^:]+:\/\/[^:]+(:\d+)?: /, '');
  return `error: cannot reach ${url.origin} (${source}, ${err.code}): ${why}\n`;
}
