// bin/compile-cache.cjs: the CLI bundle's V8 code cache is written by a run that had none, read by
// the next, and never applied to another build of the bundle (V8 itself only checks the length).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'fos-compile-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Loads `file` in a fresh node as bin/fos.js does, writes the cache at exit, prints "<cache> <exports>". */
function load(file: string): string {
  const script = `const b = require(${JSON.stringify(path.join(root, 'bin/compile-cache.cjs'))}).requireWithCodeCache(${JSON.stringify(file)});
process.once('exit', b.writeCache);
console.log(b.cache, b.exports.value());`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

describe('requireWithCodeCache', () => {
  it('writes the cache once, reads it next time, and a rebuilt file of the same length starts afresh', () => {
    const file = path.join(dir, 'bundle.cjs');
    writeFileSync(file, 'exports.value = () => "one";\n');
    expect(load(file)).toBe('none one');
    expect(load(file)).toBe('accepted one');
    expect(readdirSync(`${file}.cache`)).toHaveLength(1);
    writeFileSync(file, 'exports.value = () => "two";\n'); // same length, as V8 would not notice
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(load(file)).toBe('none two');
    expect(load(file)).toBe('accepted two');
    expect(readdirSync(`${file}.cache`)).toHaveLength(1); // the old build's cache is gone
  });

  it('a run that rewrites the cache never leaves it missing, as another run may be checking for it', () => {
    const file = path.join(dir, 'rewritten.cjs');
    writeFileSync(file, 'exports.value = () => "three";\n');
    expect(load(file)).toBe('none three');
    const [name] = readdirSync(`${file}.cache`);
    writeFileSync(path.join(`${file}.cache`, 'old-build.v8'), 'stale');
    // This build's cache for another node (CI's second pass runs Node 24 beside Node 20's spawns): kept.
    const otherNode = name.replace(process.version, 'v99.0.0');
    writeFileSync(path.join(`${file}.cache`, otherNode), 'other node');
    // A run whose cache was refused (other V8 flags) writes it again: while it writes, the one there stays.
    const script = `const fs = require('node:fs');
const cache = ${JSON.stringify(path.join(`${file}.cache`, name))};
const write = fs.writeFileSync;
fs.writeFileSync = (...args) => { console.log('present while writing:', fs.existsSync(cache)); return write(...args); };
require(${JSON.stringify(path.join(root, 'bin/compile-cache.cjs'))}).requireWithCodeCache(${JSON.stringify(file)}).writeCache();`;
    expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim()).toBe('present while writing: true');
    expect(readdirSync(`${file}.cache`).sort()).toEqual([name, otherNode].sort()); // the other build's went after
  });
});
