// Module hooks for load-recorder.mjs (they run on the loader thread).
import { appendFileSync } from 'node:fs';

let file;
export async function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (file) appendFileSync(file, `${result.url}\n`);
  return result;
}
