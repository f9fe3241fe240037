// One-off (issue 38 item 1): give every src/domain/<area>/ an index.ts holding what code outside
// the area imports from it, and point those imports at the index. Run from the repository root:
// `node scripts/area-doors.mjs` (then prettier). Re-running keeps existing index entries.
import { readFileSync, writeFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep, basename } from 'node:path';
import ts from 'typescript';

const ROOT = process.cwd();
const SRC = join(ROOT, 'src');
const DOMAIN = join(SRC, 'domain');
const AREAS = readdirSync(DOMAIN).filter((d) => statSync(join(DOMAIN, d)).isDirectory());

const files = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? (n === 'generated' ? [] : files(p)) : p.endsWith('.ts') ? [p] : [];
  });

/** The area and the file (without .ts) a specifier reaches, or null. */
function target(fromFile, spec) {
  if (!spec.startsWith('.')) return null;
  const abs = resolve(dirname(fromFile), spec.replace(/\.js$/, '.ts'));
  const rel = relative(DOMAIN, abs);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  if (parts.length < 2 || !AREAS.includes(parts[0])) return null;
  return { area: parts[0], file: parts.slice(1).join('/').replace(/\.ts$/, ''), abs };
}
const areaOf = (file) => {
  const rel = relative(DOMAIN, file);
  return rel.startsWith('..') ? null : rel.split(sep)[0];
};
const camel = (file) => basename(file).replace(/[-.](\w)/g, (_, c) => c.toUpperCase());

// area -> file -> { values:Set, types:Set, namespace:bool, star:bool }
const surface = new Map();
const need = (area, file) => {
  if (!surface.has(area)) surface.set(area, new Map());
  const m = surface.get(area);
  if (!m.has(file)) m.set(file, { values: new Set(), types: new Set(), namespace: false });
  return m.get(file);
};
const edits = new Map(); // file -> [{start,end,text}]
const edit = (file, start, end, text) => {
  if (!edits.has(file)) edits.set(file, []);
  edits.get(file).push({ start, end, text });
};
const indexSpec = (fromFile, area) => {
  let r = relative(dirname(fromFile), join(DOMAIN, area, 'index.js'))
    .split(sep)
    .join('/');
  return r.startsWith('.') ? r : `./${r}`;
};

for (const file of files(SRC)) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const mine = areaOf(file);
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const t = target(file, node.moduleSpecifier.text);
      if (t && t.area !== mine && t.file !== 'index') {
        const entry = need(t.area, t.file);
        const typeOnly = node.isTypeOnly ?? node.importClause?.isTypeOnly;
        if (ts.isImportDeclaration(node)) {
          const clause = node.importClause;
          if (clause?.name) throw new Error(`${file}: default import from ${t.file}`);
          const nb = clause?.namedBindings;
          if (nb && ts.isNamespaceImport(nb)) {
            entry.namespace = true;
            const ns = camel(t.file);
            const local = nb.name.text;
            edit(
              file,
              node.getStart(),
              node.getEnd(),
              `import { ${ns === local ? ns : `${ns} as ${local}`} } from '${indexSpec(file, t.area)}';`,
            );
            return;
          }
          for (const el of nb?.elements ?? []) {
            const name = (el.propertyName ?? el.name).text;
            (typeOnly || el.isTypeOnly ? entry.types : entry.values).add(name);
          }
        } else {
          if (!node.exportClause) throw new Error(`${file}: export * from ${t.file}`);
          for (const el of node.exportClause.elements) {
            const name = (el.propertyName ?? el.name).text;
            (typeOnly || el.isTypeOnly ? entry.types : entry.values).add(name);
          }
        }
        const s = node.moduleSpecifier;
        edit(file, s.getStart(), s.getEnd(), `'${indexSpec(file, t.area)}'`);
      }
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0])) {
      const t = target(file, node.arguments[0].text);
      if (t && t.area !== mine && t.file !== 'index') {
        // `const { a, b } = await import('…')`: the names destructured.
        let p = node.parent;
        while (p && !ts.isVariableDeclaration(p)) p = p.parent;
        if (!p || !ts.isObjectBindingPattern(p.name)) throw new Error(`${file}: dynamic import of ${t.file} without destructuring`);
        for (const el of p.name.elements) need(t.area, t.file).values.add((el.propertyName ?? el.name).text);
        const a = node.arguments[0];
        edit(file, a.getStart(), a.getEnd(), `'${indexSpec(file, t.area)}'`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

for (const [file, list] of edits) {
  let text = readFileSync(file, 'utf8');
  for (const e of list.sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  writeFileSync(file, text);
}

for (const [area, byFile] of [...surface].sort()) {
  const p = join(DOMAIN, area, 'index.ts');
  const seen = new Map();
  const lines = [];
  for (const [file, e] of [...byFile].sort()) {
    const spec = `./${file}.js`;
    const names = [
      ...[...e.values].sort(),
      ...[...e.types]
        .filter((t) => !e.values.has(t))
        .sort()
        .map((t) => `type ${t}`),
    ];
    for (const n of names) {
      const bare = n.replace(/^type /, '');
      if (seen.has(bare) && seen.get(bare) !== file) throw new Error(`${area}: ${bare} from ${file} and ${seen.get(bare)}`);
      seen.set(bare, file);
    }
    if (e.namespace) lines.push(`export * as ${camel(file)} from '${spec}';`);
    if (names.length) lines.push(`export { ${names.join(', ')} } from '${spec}';`);
  }
  if (existsSync(p)) {
    // An area that has a door already: add what is missing to it (a name it exports stays as it is).
    const had = readFileSync(p, 'utf8');
    const exported = new Set(
      [...had.matchAll(/export\s+(?:\*\s+as\s+(\w+)|\{([^}]*)\})/g)].flatMap((m) =>
        m[1]
          ? [m[1]]
          : m[2].split(',').map((x) =>
              x
                .trim()
                .replace(/^type\s+/, '')
                .split(/\s+as\s+/)
                .pop(),
            ),
      ),
    );
    const missing = lines.filter((l) => {
      const names = l.startsWith('export * as')
        ? [l.split(' ')[3]]
        : l
            .replace(/^export \{ | \} from.*$/g, '')
            .split(', ')
            .map((n) => n.replace(/^type /, ''));
      return names.some((n) => !exported.has(n));
    });
    writeFileSync(p, had.trimEnd() + (missing.length ? '\n' + missing.join('\n') : '') + '\n');
  } else {
    const head = `// The ${area} area's door: what code outside src/domain/${area}/ may import (test/unit/layers.test.ts).\n`;
    writeFileSync(p, head + lines.join('\n') + '\n');
  }
}
console.log(`areas with a door: ${surface.size}; files rewritten: ${edits.size}`);
