// `fos --version` and `fos --help` must not load the server, Prisma, undici (nor conf or the
// prompt library): compile the CLI's import graph alone and trace what the process resolves.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const out = path.join(root, '.tmp', `cli-startup-${process.pid}`);
const trace = path.join(out, 'imports.txt');
const tracer = path.join(root, 'test/cli/fixtures/trace-imports.mjs');

beforeAll(() => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'bin'), { recursive: true });
  writeFileSync(path.join(out, 'tsconfig.json'), JSON.stringify({
    extends: '../../tsconfig.json',
    compilerOptions: { outDir: 'dist', sourceMap: false },
    files: ['../../src/cli/main.ts'],
    include: [],
  }));
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', out], { stdio: 'pipe' });
  copyFileSync(path.join(root, 'bin/fos.js'), path.join(out, 'bin/fos.js'));
  copyFileSync(path.join(root, 'package.json'), path.join(out, 'package.json'));
  return () => rmSync(out, { recursive: true, force: true });
}, 120_000);

function fos(args: string[]) {
  rmSync(trace, { force: true });
  const r = spawnSync(process.execPath, ['--import', tracer, path.join(out, 'bin/fos.js'), ...args], {
    encoding: 'utf8', env: { PATH: process.env.PATH, FOS_TRACE_IMPORTS: trace, FOS_CONFIG_DIR: path.join(out, 'config') },
  });
  const imports = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  return { ...r, imports };
}

const HEAVY = [/\/src\/server\/|\/dist\/server\//, /prisma/i, /\/node_modules\/undici\//, /\/node_modules\/conf\//, /@inquirer/, /fastify/];

describe('startup stays light', () => {
  it.each([[['--version']], [['--help']], [['products', 'list', '--help']]])('fos %j', (args) => {
    const r = fos(args);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toBe('');
    // --version alone is answered by bin/fos.js from dist/version.js, without the command tree.
    const entry = args[0] === '--version' ? '/dist/version.js' : '/dist/cli/main.js';
    expect(r.imports.some((u) => u.includes(entry))).toBe(true);
    if (args[0] === '--version') expect(r.imports.filter((u) => u.includes('/dist/cli/'))).toEqual([]);
    for (const heavy of HEAVY) expect(r.imports.filter((u) => heavy.test(u))).toEqual([]);
  });

  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(fos(['--version']).stdout).toBe(`${version}\n`);
  });

  it('bin/fos.js is an executable node script', () => {
    const bin = readFileSync(path.join(root, 'bin/fos.js'), 'utf8');
    expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(spawnSync('test', ['-x', path.join(root, 'bin/fos.js')]).status).toBe(0);
  });
});
