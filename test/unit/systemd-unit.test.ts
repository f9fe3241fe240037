import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';

// contrib/systemd/fos.service (issue 42 item 6): the unit docs/serve.md quotes. Its keys are
// checked by a small parser everywhere; `systemd-analyze verify` checks it as systemd reads it
// where systemd is installed (this machine and Debian/Ubuntu CI images have it).

const root = packageRoot();
const unitText = readFileSync(path.join(root, 'contrib', 'systemd', 'fos.service'), 'utf8');

/** Sections of a unit file: key -> values (a key may repeat, e.g. Environment=). */
function parseUnit(text: string): Record<string, Record<string, string[]>> {
  const sections: Record<string, Record<string, string[]>> = {};
  let current: Record<string, string[]> | undefined;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[([A-Za-z]+)\]$/.exec(line);
    if (section) {
      current = sections[section[1]!] = {};
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/.exec(line);
    if (!kv || !current) throw new Error(`line ${i + 1} is not "Key=value" inside a section: ${raw}`);
    (current[kv[1]!] ??= []).push(kv[2]!);
  }
  return sections;
}

const which = spawnSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' });
const systemdAnalyze = which.status === 0 ? which.stdout.trim() : null;

describe('contrib/systemd/fos.service', () => {
  const unit = parseUnit(unitText);

  it('runs fos serve, restarts on failure, keeps its data directory, reads secrets from an environment file, logs JSON to journald', () => {
    expect(Object.keys(unit)).toEqual(['Unit', 'Service', 'Install']);
    const s = unit.Service!;
    expect(s.ExecStart).toEqual([expect.stringMatching(/^\/\S+\/fos serve( |$)/)]);
    expect(s.Restart).toEqual(['on-failure']);
    expect(s.RestartPreventExitStatus).toEqual(['2']); // usage errors: a restart cannot fix them
    expect(s.StateDirectory).toEqual(['fos']);
    expect(s.Environment).toEqual(expect.arrayContaining(['FOS_DATA_DIR=/var/lib/fos', 'FOS_LOG_FORMAT=json']));
    expect(s.EnvironmentFile).toEqual(['/etc/fos/fos.env']);
    expect(s.StandardOutput).toEqual(['journal']);
    expect(s.User).toEqual(['fos']);
    // The stop timeout outlasts fos's drain (10 s) so systemd does not SIGKILL a draining server.
    expect(Number(/^(\d+)s$/.exec(s.TimeoutStopSec![0]!)![1])).toBeGreaterThan(15);
    expect(unit.Install!.WantedBy).toEqual(['multi-user.target']);
    // No secret in the unit itself: they belong in the environment file.
    expect(unitText).not.toMatch(/FOS_SECRET_KEY=|FOS_METRICS_TOKEN=|postgres(ql)?:\/\//);
  });

  it('is quoted whole by docs/serve.md', () => {
    const doc = readFileSync(path.join(root, 'docs', 'serve.md'), 'utf8');
    expect(doc).toContain('```ini\n' + unitText + '```\n');
  });

  // The only case left out anywhere: a machine without systemd has no systemd-analyze (the parser above still ran).
  it.runIf(systemdAnalyze)(`systemd-analyze verify accepts it (${systemdAnalyze ?? 'systemd-analyze not installed'})`, () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fos-unit-'));
    try {
      // verify checks that ExecStart's program exists: the checkout's bin/fos.js stands in for the installed one.
      const file = path.join(dir, 'fos.service');
      writeFileSync(file, unitText.replace(/^ExecStart=\S+/m, `ExecStart=${path.join(root, 'bin', 'fos.js')}`));
      const ok = spawnSync(systemdAnalyze!, ['verify', file], { encoding: 'utf8' });
      // Unknown keys and bad values are warnings on stderr with exit 0: nothing at all is accepted.
      expect([ok.status, ok.stdout + ok.stderr]).toEqual([0, '']);
      // The check can fail: a relative ExecStart is refused.
      const bad = path.join(dir, 'bad.service');
      writeFileSync(bad, '[Service]\nExecStart=relative/fos serve\n');
      const refused = spawnSync(systemdAnalyze!, ['verify', bad], { encoding: 'utf8' });
      expect(refused.status !== 0 || refused.stderr !== '').toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
