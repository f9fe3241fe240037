/**
 * Token redaction: the CLI never prints a saved token back. `fos_ab…wxyz` style at most:
 * the prefix before the first underscore and the last four characters.
 */
export function redactToken(token: string | undefined | null): string {
  if (!token) return '';
  const underscore = token.indexOf('_');
  const prefix = underscore > 0 && underscore <= 8 ? token.slice(0, underscore + 1) : '';
  if (token.length < prefix.length + 12) return `${prefix}…`;
  return `${prefix}…${token.slice(-4)}`;
}
