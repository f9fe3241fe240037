// Renders the docs' generated tables: every API operation with the permission it needs (from
// the OpenAPI document), and every CLI command (from the commander tree). Pure functions; the
// writer is scripts/gen-doc-tables.mjs, and test/unit/doc-tables.test.ts checks docs/api.md and docs/cli.md are fresh.

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const escape = (text) =>
  String(text ?? '')
    .replaceAll('|', '\\|')
    .replace(/\s+/g, ' ')
    .trim();

/** Markdown table of the OpenAPI document's operations. */
export function renderOperationTable(doc) {
  const rows = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      const m = method.toUpperCase();
      if (!METHOD_ORDER.includes(m)) continue;
      const permission = op['x-public'] ? 'none (public)' : (op['x-permission'] ?? 'any valid key');
      const family = { ops: 'fulfiller', merchant: 'merchant' }[op['x-family']] ?? 'any';
      rows.push({ path, m, line: `| ${m} | \`${path}\` | ${escape(op.summary)} | ${permission} | ${family} |` });
    }
  }
  rows.sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.m) - METHOD_ORDER.indexOf(b.m));
  return [
    '| Method | Path | Operation | Permission | Keys |',
    '|---|---|---|---|---|',
    ...rows.map((r) => r.line),
    '',
    'Not in the OpenAPI document: `POST /mcp` (agent-tool endpoint, `Authorization: Bearer <key or agent connection token>`; each executed operation checks its own permission), the OAuth endpoints and pages of agent connections (`/.well-known/oauth-*`, `/oauth/*`: [docs/mcp.md](docs/mcp.md)), the `/floor` page with its sign-in endpoints (`/floor/session`: [docs/floor.md](docs/floor.md#the-floor-page)) and `GET /v1/swagger.json` itself.',
  ].join('\n');
}

/** Markdown table of every runnable command of a commander program. */
export function renderCommandTable(program) {
  const rows = [];
  const walk = (cmd, prefix) => {
    for (const sub of cmd.commands) {
      if (sub._hidden || sub.name() === 'help') continue;
      const name = `${prefix} ${sub.name()}`;
      if (sub.commands.length) walk(sub, name);
      else {
        const args = sub.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`)).join(' ');
        rows.push(`| \`${name}${args ? ' ' + args : ''}\` | ${escape(sub.description())} |`);
      }
    }
  };
  walk(program, 'fos');
  return ['| Command | What it does |', '|---|---|', ...rows, '', 'Every command has `--help` with examples.'].join('\n');
}

/** Replaces the text between <!-- name:start --> and <!-- name:end --> markers. */
export function replaceBlock(text, name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`the document lacks the ${name} markers`);
  return `${text.slice(0, i + start.length)}\n${body}\n${text.slice(j)}`;
}
