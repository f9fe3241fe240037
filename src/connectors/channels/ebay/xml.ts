import { XMLParser, XMLValidator } from 'fast-xml-parser';

// The XML the eBay Trading API needs: a request body built from escaped text, and its answers
// read with fast-xml-parser into a small tree (elements in document order, attributes, text),
// namespace prefixes dropped, the declaration and comments skipped.

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/** Text for an element's content or an attribute value. */
export const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

// preserveOrder keeps repeated elements (Item, Errors) as a list in document order; values stay
// text (an ItemID is no number); entities and character references are decoded.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
});

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

function toNodes(items: Ordered[]): { children: XmlNode[]; text: string } {
  const children: XmlNode[] = [];
  let text = '';
  for (const item of items) {
    const name = Object.keys(item).find((k) => k !== ':@')!;
    if (name === '#text') text += String(item[name]);
    else if (!name.startsWith('?') && name !== '#comment') {
      const inner = toNodes(item[name] as Ordered[]);
      children.push({ name, attrs: { ...(item[':@'] ?? {}) }, ...inner });
    }
  }
  return { children, text };
}

/** The document's root element; throws on text that is not well-formed XML with one root. */
export function readXml(xml: string): XmlNode {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`XML: ${valid.err.msg} (line ${valid.err.line})`);
  const { children } = toNodes(parser.parse(xml) as Ordered[]);
  if (children.length !== 1) throw new Error('XML: not one root element');
  return children[0]!;
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
