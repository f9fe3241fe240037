import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { generateCompletion } from '../../src/cli/completion.js';
import { buildProgram, run } from '../../src/cli/main.js';
import { runCli } from './helpers/cli.js';

function tinyProgram(): Command {
  const p = new Command('fos')
    .option('--profile <name>', 'profile')
    .addOption(new Option('--format <f>', 'format').choices(['table', 'json']));
  const products = p.command('products').description("Products (it's stock)");
  products
    .command('list')
    .description('List products')
    .option('--search <text>', 'search')
    .addOption(new Option('--order <dir>', 'direction').choices(['asc', 'desc']));
  p.command('orders')
    .description('Orders')
    .command('priority')
    .description('Set priority')
    .argument('<id>')
    .addArgument(new Argument('<priority>').choices(['LOW', 'HIGH']));
  return p;
}

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

/** Runs the bash completion function for a command line and returns COMPREPLY. */
function bashComplete(script: string, line: string, opts: { env?: Record<string, string>; cwd?: string } = {}): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'fos-comp-'));
  const file = path.join(dir, 'fos.bash');
  writeFileSync(file, script);
  const words = line.split(' ');
  // `fos` is this checkout's binary (the scripts call `fos __complete …` for profile names).
  const prog = `fos() { node ${JSON.stringify(path.join(__dirname, '../../bin/fos.js'))} "$@"; }
source ${file}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_fos_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['-c', prog], { encoding: 'utf8', cwd: opts.cwd, env: { ...process.env, ...opts.env } });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('bash', () => {
  const script = generateCompletion('bash', tinyProgram());

  it('is valid bash', () => {
    expect(spawnSync('bash', ['-n', '-c', script]).status).toBe(0);
  });

  it('completes subcommands, options (local + global), choices of options and arguments', () => {
    expect(bashComplete(script, 'fos ')).toEqual(['products', 'orders']);
    expect(bashComplete(script, 'fos pro')).toEqual(['products']);
    expect(bashComplete(script, 'fos products ')).toEqual(['list']);
    expect(bashComplete(script, 'fos products list --')).toEqual(['--search', '--order', '--profile', '--format', '--help']);
    expect(bashComplete(script, 'fos products list --order ')).toEqual(['asc', 'desc']);
    expect(bashComplete(script, 'fos --format j')).toEqual(['json']);
    expect(bashComplete(script, 'fos --profile prod products ')).toEqual(['list']);
    expect(bashComplete(script, 'fos orders priority id1 ')).toEqual(['LOW', 'HIGH']);
  });
});

/** Runs the zsh completion function with stubbed compadd/_describe; returns the offered words. */
function zshComplete(script: string, line: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'fos-comp-'));
  const file = path.join(dir, '_fos');
  writeFileSync(file, script);
  const prog = `compdef() {}
_describe() { local -a arr; arr=("\${(@P)\${@[-1]}}"); print -l -- \${arr%%:*} }
compadd() { [[ $1 == -a ]] && print -l -- "\${(@P)2}" }
_files() { print FILES }
source ${file}
words=(\${=1}); [[ $1 == *' ' ]] && words+=(''); CURRENT=\${#words}
_fos`;
  const r = spawnSync('zsh', ['-c', prog, 'zsh', line], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

function fishComplete(script: string, line: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'fos-comp-'));
  const file = path.join(dir, 'fos.fish');
  writeFileSync(file, script);
  const r = spawnSync('fish', ['-c', `source ${file}; complete -C "${line}"`], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t')[0]);
}

describe('zsh and fish', () => {
  it('zsh: compdef header, descriptions (quotes escaped), choices', () => {
    const script = generateCompletion('zsh', tinyProgram());
    expect(script.startsWith('#compdef fos\n')).toBe(true);
    expect(script).toContain(`'products:Products (it'\\''s stock)'`);
    expect(script).toContain(`'fos products list|--order') echo 'asc desc' ;;`);
    if (!has('zsh')) return;
    expect(spawnSync('zsh', ['-n', '-c', script]).status).toBe(0);
    expect(zshComplete(script, 'fos ')).toEqual(['products', 'orders']);
    expect(zshComplete(script, 'fos products list --')).toEqual(['--search', '--order', '--profile', '--format', '--help', '-h']);
    expect(zshComplete(script, 'fos --profile x products list --order ')).toEqual(['asc', 'desc']);
    expect(zshComplete(script, 'fos orders priority id1 ')).toEqual(['LOW', 'HIGH']);
  });

  it('fish: one complete line per subcommand and option', () => {
    const script = generateCompletion('fish', tinyProgram());
    expect(script).toContain(`complete -c fos -n '__fos_at \\'fos\\'' -a 'products' -d 'Products (it'\\''s stock)'`);
    expect(script).toContain(`complete -c fos -n '__fos_at \\'fos products list\\'' -l order -x -a 'asc desc' -d 'direction'`);
    expect(script).toContain(`complete -c fos -l format -x -a 'table json' -d 'format'`);
    if (!has('fish')) return;
    expect(spawnSync('fish', ['-n', '-c', script]).status).toBe(0);
    expect(fishComplete(script, 'fos ')).toEqual(['orders', 'products']);
    expect(fishComplete(script, 'fos --profile x products list --ord')).toEqual(['--order']);
    expect(fishComplete(script, 'fos products list --order ')).toEqual(['asc', 'desc']);
    expect(fishComplete(script, 'fos orders priority id1 ')).toEqual(['HIGH', 'LOW']);
  });
});

describe('the real command tree', () => {
  it('covers every resource verb and the global flags', async () => {
    const program = await buildProgram(createContext({ io: testIOStreams(), env: {} }));
    const script = generateCompletion('bash', program);
    expect(script).toContain(`'fos keys') echo 'list get create disable delete roles tier' ;;`);
    expect(script).toContain(`'fos orders priority') echo 'LOW NORMAL HIGH CRITICAL' ;;`);
    expect(script).toContain(`*'|--format') echo 'table json ndjson csv' ;;`);
    expect(bashComplete(script, 'fos products create --weight-unit ')).toEqual(['G', 'LB']);
    expect(bashComplete(script, 'fos fulfillment-orders ')).toEqual([
      'list',
      'get',
      'accept',
      'lock',
      'release',
      'cancel',
      'move',
      'split',
    ]);
  });

  it("offers profile names, every enum flag's values, and file names only where a file is taken", async () => {
    const script = readFileSync(path.join(__dirname, '../../completions/fos.bash'), 'utf8');
    const configDir = mkdtempSync(path.join(tmpdir(), 'fos-comp-cfg-'));
    for (const name of ['warehouse-b', 'local']) {
      expect((await runCli(['config', 'set', '--profile', name, 'base_url', `http://${name}.example/v1`], { configDir })).code).toBe(0);
    }
    const env = { FOS_CONFIG_DIR: configDir };
    expect(bashComplete(script, 'fos --profile ', { env })).toEqual(['local', 'warehouse-b']);
    expect(bashComplete(script, 'fos --profile w', { env })).toEqual(['warehouse-b']);
    expect(bashComplete(script, 'fos profile use ', { env })).toEqual(['local', 'warehouse-b']);
    const cwd = mkdtempSync(path.join(tmpdir(), 'fos-comp-cwd-'));
    writeFileSync(path.join(cwd, 'ids.ndjson'), '');
    expect(bashComplete(script, 'fos fulfill run --from ', { cwd })).toEqual(['ids.ndjson']);
    expect(bashComplete(script, 'fos api POST /ops/files --input ', { cwd })).toEqual(['ids.ndjson']);
    expect(bashComplete(script, 'fos products list --search ', { cwd })).toEqual([]);
    expect(bashComplete(script, 'fos orders list --limit ', { cwd })).toEqual([]);
    // every option that declares choices completes them, wherever it is
    const program = await buildProgram(createContext({ io: testIOStreams(), env: {} }));
    const walk = (cmd: Command, words: string[]): [string, string[]][] => [
      ...cmd.options
        .filter((o) => o.argChoices?.length && o.long)
        .map((o): [string, string[]] => [[...words, o.long!].join(' '), o.argChoices!]),
      ...cmd.commands.flatMap((c) => walk(c, [...words, c.name()])),
    ];
    const enumFlags = walk(program, ['fos']);
    expect(enumFlags.length).toBeGreaterThan(20);
    expect(enumFlags.map(([l]) => l)).toEqual(expect.arrayContaining(['fos fulfill run --rate-strategy', 'fos --format']));
    const probe = enumFlags.filter((_, i) => i % 5 === 0).concat(enumFlags.filter(([l]) => /rate-strategy|--format$/.test(l)));
    for (const [line, choices] of probe) expect(bashComplete(script, `${line} `), line).toEqual(choices);
  });

  it('fos completion <shell> prints the script; unknown shells are usage errors', async () => {
    const r = await runCli(['completion', 'fish']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('complete -c fos');
    expect((await runCli(['completion', 'tcsh'])).code).toBe(2);
  });
});

describe('the committed scripts in completions/', () => {
  // CONTRIBUTING.md promises they are kept fresh: regenerate with `npm run build && node scripts/gen-completions.mjs`.
  it.each([
    ['bash', 'fos.bash'],
    ['zsh', '_fos'],
    ['fish', 'fos.fish'],
  ])('%s matches `fos completion %s` (server commands included)', async (shell, file) => {
    const io = testIOStreams();
    const ctx = createContext({ io, env: {} });
    const code = await run(['node', 'fos', 'completion', shell], ctx, { loadServerCommands: () => import('../../src/server/cli.js') });
    expect(code).toBe(0);
    expect(io.stdoutText()).toBe(readFileSync(path.join(__dirname, '../../completions', file), 'utf8'));
  });
});
