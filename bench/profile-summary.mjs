// Sums a .cpuprofile's self time by package (node_modules/<name>, our src/dist, node internals,
// GC, idle): `node bench/profile-summary.mjs <file>.cpuprofile [--functions N]`.
import { readFileSync } from 'node:fs';

const [file, flag, n] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const groupOf = ({ callFrame: { url, functionName } }) => {
  if (!url) return `(${functionName || 'native'})`;
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node:internals';
  const ours = url.match(/\/(dist|src)\/([^/]+)\//);
  return ours ? `fos ${ours[2]}` : url;
};
const sum = (keyOf) => {
  const out = new Map();
  for (const [id, us] of self) {
    const key = keyOf(byId.get(id));
    out.set(key, (out.get(key) ?? 0) + us);
  }
  return [...out.entries()].sort((a, b) => b[1] - a[1]);
};
const total = [...self.values()].reduce((a, b) => a + b, 0);
const busy = total - (sum(groupOf).find(([k]) => k === '((idle))')?.[1] ?? 0);
console.log(`${(total / 1e3).toFixed(0)} ms sampled, ${(busy / 1e3).toFixed(0)} ms busy`);
for (const [k, us] of sum(groupOf).slice(0, 25))
  console.log(`${(us / 1e3).toFixed(0).padStart(7)} ms ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${k}`);
if (flag === '--functions') {
  console.log('');
  const fnOf = (node) => `${node.callFrame.functionName || '(anonymous)'} ${groupOf(node)}:${node.callFrame.lineNumber + 1}`;
  for (const [k, us] of sum(fnOf).slice(0, Number(n ?? 30))) console.log(`${(us / 1e3).toFixed(0).padStart(7)} ms  ${k}`);
}
if (flag === '--callers') {
  // Self time of a package (argv[4]) attributed to the nearest caller outside it and outside node's internals.
  const parent = new Map();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const out = new Map();
  for (const [id, us] of self) {
    let node = byId.get(id);
    if (groupOf(node) !== n) continue;
    while (node && (groupOf(node) === n || groupOf(node) === 'node:internals' || !node.callFrame.url)) node = byId.get(parent.get(node.id));
    const key = node
      ? `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*\/(dist|node_modules)\//, '')}:${node.callFrame.lineNumber + 1}`
      : '(root)';
    out.set(key, (out.get(key) ?? 0) + us);
  }
  console.log('');
  for (const [k, us] of [...out].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(us / 1e3).toFixed(0).padStart(7)} ms  ${k}`);
}
