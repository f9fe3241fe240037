import { readFileSync } from 'node:fs';

// Read once from package.json so --version, the OpenAPI document and the server agree.
export const VERSION: string = (() => {
  try {
    const url = new URL('../package.json', import.meta.url);
    return JSON.parse(readFileSync(url, 'utf8')).version as string;
  } catch {
    return '0.0.0';
  }
})();
