// --help as a new user meets it: the first steps on top, and examples on every command,
// server-side ones (`fos admin …`, `fos db migrate`) included.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { buildProgram } from '../../src/cli/main.js';
import { registerServerCommands } from '../../src/server/cli.js';
import { runCli } from './helpers/cli.js';

function helpOf(cmd: Command): string {
  let out = '';
  cmd.configureOutput({
    writeOut: (t) => {
      out += t;
    },
  });
  cmd.outputHelp();
  return out;
}

describe('help', () => {
  it('fos --help starts with the five things people do first', async () => {
    const r = await runCli(['--help']);
    const steps = r.stdout.slice(r.stdout.indexOf('First steps:')).split('\n').slice(1, 6);
    expect(steps.map((l) => l.trim().split(/\s{2,}/)[0])).toEqual([
      '$ fos serve --demo',
      '$ fos login --base-url <url>',
      '$ fos products list',
      '$ fos orders list --status OPEN',
      '$ fos fulfill run <order-id> --rate-strategy CHEAPEST',
    ]);
  });

  it('every command has examples, fos admin … and fos db migrate included', async () => {
    const program = await buildProgram(createContext({ io: testIOStreams(), env: {} }));
    registerServerCommands(program);
    const leaves: [string, Command][] = [];
    const walk = (cmd: Command, path: string) => {
      for (const sub of cmd.commands) {
        if ((sub as Command & { _hidden?: boolean })._hidden) continue;
        if (sub.commands.length) walk(sub, `${path} ${sub.name()}`);
        else leaves.push([`${path} ${sub.name()}`, sub]);
      }
    };
    walk(program, 'fos');
    expect(leaves.length).toBeGreaterThan(80);
    expect(leaves.map(([p]) => p)).toEqual(
      expect.arrayContaining(['fos db migrate', 'fos admin key create', 'fos admin user add-to-team']),
    );
    const missing = leaves.filter(([, cmd]) => !/\nExamples:\n {2}\$ .*\bfos /.test(helpOf(cmd))).map(([p]) => p);
    expect(missing).toEqual([]);
  });
});
