// The little XML the eBay Trading API needs: a request body built from escaped text, and a
// reader for its answers (elements, attributes, text, the five entities and character
// references, CDATA, comments and the declaration skipped). Not a general parser: no DTDs,
// no namespaces beyond ignoring the prefix. Written here because the only XML parser under
// node_modules (fast-xml-parser 3, brought by the dev-only s3rver) is absent from a
// production install.

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

/** Text for an element's content or an attribute value. */
export const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<!DOCTYPE[^>]*>|<\/([^\s>]+)\s*>|<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** The document's root element; throws on text that is not well-formed enough to read. */
export function readXml(xml: string): XmlNode {
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  for (const m of xml.matchAll(TOKEN)) {
    const top = stack[stack.length - 1]!;
    if (m[1] !== undefined) top.text += m[1];
    else if (m[2] !== undefined) {
      if (stack.length < 2 || top.name !== local(m[2])) throw new Error(`XML: unexpected </${m[2]}>`);
      stack.pop();
    } else if (m[3] !== undefined) {
      const attrs: Record<string, string> = {};
      for (const a of (m[4] ?? '').matchAll(ATTR)) attrs[local(a[1]!)] = decode(a[2] ?? a[3] ?? '');
      const node: XmlNode = { name: local(m[3]), attrs, children: [], text: '' };
      top.children.push(node);
      if (!m[5]) stack.push(node);
    } else if (m[6] !== undefined && stack.length > 1) top.text += decode(m[6]);
  }
  if (stack.length !== 1 || root.children.length !== 1) throw new Error('XML: not one closed root element');
  return root.children[0]!;
}

/** The children named `name`. */
export const all = (n: XmlNode | undefined, name: string) => n?.children.filter((c) => c.name === name) ?? [];
/** The first child named `name`. */
export const one = (n: XmlNode | undefined, name: string) => n?.children.find((c) => c.name === name);
/** The trimmed text at a path of child names; null when absent or empty. */
export function textAt(n: XmlNode | undefined, ...path: string[]): string | null {
  let cur = n;
  for (const p of path) cur = one(cur, p);
  const t = cur?.text.trim();
  return t ? t : null;
}
