// The V8 flags bin/fos.js sets (bin/compile-cache.cjs) are ones this node's V8 knows: an unknown
// flag is not an exception but a line on stderr ("unrecognized flag"), which `fos` must never
// print. `fos serve` on V8 11 (Node 20) optimises later (--interrupt-budget 4x), on V8 12+
// (Node 22, 24) at V8's default: docs/performance.md, "Fulfillment beside its fair floor". CI runs this on 20 and 24.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const file = path.resolve(import.meta.dirname, '../../bin/compile-cache.cjs');
const { V8_FLAGS } = createRequire(import.meta.url)(file) as { V8_FLAGS: Record<string, string[]> };

describe('the V8 flags of bin/fos.js', () => {
  it('are all known to this node: setting them prints nothing', () => {
    const script = `const c = require(${JSON.stringify(file)}); for (const w of ['client', 'serve', 'serveBoot']) c.setV8Flags(w);`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it("fos serve's tiering flag follows the V8 version", () => {
    const v8Major = Number(process.versions.v8.split('.')[0]);
    if (v8Major < 12) expect(V8_FLAGS.serve).toContain('--interrupt-budget=270336');
    else expect(V8_FLAGS.serve.some((f) => f.startsWith('--interrupt-budget'))).toBe(false);
  });
});
