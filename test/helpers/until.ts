// Waiting on a condition instead of for a duration: a test that sleeps "long enough" fails on a
// slow machine and wastes time on a fast one.
//
//   await until(() => s.stdout().includes(traceId), 'the request log line');

/** Resolves once `condition()` holds (checked every 20 ms); rejects naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`waited ${timeoutMs / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
