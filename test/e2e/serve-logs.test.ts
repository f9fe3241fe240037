import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveSandbox, spawnServe, type ServeProcess } from '../helpers/serve-process.js';
import { until } from '../helpers/until.js';

// `fos serve` log lines (issue 8 item 8): readable with --log-format pretty (what a terminal gets
// by default), one JSON object per line when piped (the default here): both carry the trace id
// that error details show, and neither shows a key.

const running: ServeProcess[] = [];
afterAll(async () => {
  for (const s of running) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
});

async function serve(extra: string[]) {
  const { dir, env } = await serveSandbox();
  const s = await spawnServe(['--db', path.join(dir, 'fos.db'), '--port', '0', ...extra], { ...env, FOS_LOG_LEVEL: 'info' }, dir).started;
  running.push(s);
  const res = await fetch(`${s.url}/me`, { headers: { 'x-access-token': 'fos_notarealkey' } });
  const problem = (await res.json()) as { trace_id: string };
  // The log line is written after the answer: wait until it is there, whole (up to its newline).
  await until(
    () =>
      s
        .stdout()
        .split('\n')
        .slice(0, -1)
        .some((l) => l.includes(problem.trace_id)),
    'the request log line',
  );
  return { s, traceId: problem.trace_id, status: res.status };
}

describe('fos serve logs', () => {
  it('--log-format pretty: one readable line per request with time, level, trace id, method, URL and status', async () => {
    const { s, traceId, status } = await serve(['--log-format', 'pretty']);
    expect(status).toBe(401);
    const out = s.stdout();
    expect(out).not.toMatch(/^\{"level"/m);
    // One line a request: method, URL, status and duration together.
    expect(out).toMatch(
      new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: \\[${traceId}\\] request completed GET /v1/me -> 401 in \\d+\\.\\d ms$`, 'm'),
    );
    expect(out.split('\n').filter((l) => l.includes(traceId))).toHaveLength(1);
    expect(out).not.toContain('fos_notarealkey');
  });

  it('piped (auto): JSON lines carrying trace_id', async () => {
    const { s, traceId } = await serve([]);
    const lines = s
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    const done = lines.find((l) => l.msg === 'request completed' && l.trace_id === traceId);
    expect(done).toMatchObject({ level: 30, req: { method: 'GET', url: '/v1/me' }, res: { statusCode: 401 } });
    expect(lines.filter((l) => l.trace_id === traceId)).toHaveLength(1);
    expect(s.stdout()).not.toContain('fos_notarealkey');
  });
});
