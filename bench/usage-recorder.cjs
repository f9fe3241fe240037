'use strict';
// `NODE_OPTIONS=--require=bench/usage-recorder.cjs`: at exit, appends this process's CPU (user +
// system, all threads) and memory to $FOS_BENCH_USAGE as one JSON line. Preloaded the same way
// into `node bin/fos.js` and into the standalone binary (a single executable honours
// NODE_OPTIONS), so both are measured alike (bench/sea-startup.mjs). Memory from
// /proc/self/status: VmHWM, the peak resident set; RssAnon, the process's own memory; RssFile,
// mapped file pages (the executable's code), which depend on what the page cache holds of it.
const fs = require('node:fs');

const file = process.env.FOS_BENCH_USAGE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    const kib = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1]);
    const line = { cpuMs: (user + system) / 1000, hwmKiB: kib('VmHWM'), anonKiB: kib('RssAnon'), fileKiB: kib('RssFile') };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  });
}
