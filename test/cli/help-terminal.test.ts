// --help as it shows on a real terminal of 80 columns (a pseudo-terminal, through the spawned
// bin/fos.js): every line fits, nothing is cut inside a word (the same words as on a very wide
// terminal, where nothing wraps), an example command goes on with ` \` so it still pastes, and a
// group lists its subcommands before the options (issue 22 item 2).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptySpawn } from './helpers/pty.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/fos.js');

async function help(args: string[], columns: number): Promise<string> {
  const env = { PATH: process.env.PATH, HOME: root, FOS_CONFIG_DIR: path.join(root, '.tmp', 'help-terminal'), NO_COLOR: '1' };
  const { code, output } = await ptySpawn([process.execPath, bin, ...args, '--help'], { env, columns, rows: 50 }).done;
  expect(code, output).toBe(0);
  return output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n/g, '\n');
}

/** The words of a help text, with the continuation marks wrapping added. */
const words = (text: string) => text.split(/\s+/).filter((w) => w && w !== '\\');

describe('--help on an 80-column terminal', () => {
  it.each([[['']], [['keys']], [['fulfill', 'run']], [['packages', 'label']], [['orders', 'list']]])('fos %j --help', async (args) => {
    const cmd = args.filter(Boolean);
    const [narrow, wide] = [await help(cmd, 80), await help(cmd, 1000)];
    const long = narrow.split('\n').filter((l) => l.length > 80);
    expect(long).toEqual([]);
    expect(words(narrow)).toEqual(words(wide));
    expect(
      wide.split('\n').some((l) => l.length > 80),
      'the wide one has lines that needed wrapping',
    ).toBe(true);
  });

  it('a group lists its subcommands first, then its options, then the global ones', async () => {
    const text = await help(['keys'], 80);
    const at = (heading: string) => text.indexOf(`\n${heading}\n`);
    expect(at('Commands:')).toBeGreaterThan(0);
    expect(at('Commands:')).toBeLessThan(at('Options:'));
    expect(at('Options:')).toBeLessThan(at('Global Options:'));
  });

  it('fos --help has no heading of its own for the help command, and examples go on with \\', async () => {
    const text = await help([], 80);
    expect(text).not.toMatch(/\nCommands:\n/);
    expect(text.slice(text.indexOf('Getting started:'), text.indexOf('Workflows:'))).toMatch(/\n {2}help \[command\]/);
    const run = await help(['fulfill', 'run'], 80);
    expect(run).toMatch(/\n {2}\$ fos orders list --status OPEN --json id \| fos fulfill run --from - \\\n {6}--rate-strategy CHEAPEST/);
  });

  it('documents the quote CSV output puts before a formula', async () => {
    expect((await help([], 80)).replace(/\s+/g, ' ')).toContain(
      "csv writes a text cell starting with =, +, -, @, tab or CR with a leading ' so a spreadsheet shows it as text",
    );
  });
});
