// `node --import ./bench/load-recorder.mjs bin/fos.js …`: records every module the process loads
// (ESM through a resolve hook, CommonJS from require.cache at exit) into $FOS_BENCH_LOADS.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.FOS_BENCH_LOADS;
if (file) {
  register('./load-recorder-hooks.mjs', import.meta.url, { data: { file } });
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    const cjs = Object.keys(require.cache);
    if (cjs.length) appendFileSync(file, `${cjs.map((p) => `cjs:${p}`).join('\n')}\n`);
  });
}
