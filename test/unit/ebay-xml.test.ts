import { describe, expect, it } from 'vitest';
import { all, escapeXml, one, readXml, textAt } from '../../src/connectors/channels/ebay/xml.js';

// The XML reader (fast-xml-parser) the eBay Trading API answers go through (src/connectors/channels/ebay/xml.ts).

describe('eBay XML reader', () => {
  it('reads elements, attributes, entities, character references, CDATA; skips the declaration and comments', () => {
    const doc = readXml(
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- hi --><R xmlns="urn:ebay:apis:eBLBaseComponents"><Ack>Success</Ack>` +
        `<Item><Title>Tom &amp; Jerry &lt;3 &#233;&#x41;</Title><Price currencyID='USD'>1.50</Price><Empty/></Item>` +
        `<Item><Title><![CDATA[a < b & c]]></Title></Item><ns:Other>x</ns:Other></R>`,
    );
    expect(doc.name).toBe('R');
    expect(textAt(doc, 'Ack')).toBe('Success');
    const items = all(doc, 'Item');
    expect(items.map((i) => textAt(i, 'Title'))).toEqual(['Tom & Jerry <3 éA', 'a < b & c']);
    expect(one(items[0], 'Price')!.attrs).toEqual({ currencyID: 'USD' });
    expect(textAt(items[0], 'Empty')).toBeNull();
    expect(textAt(doc, 'Other')).toBe('x');
    expect(textAt(doc, 'Missing', 'Deeper')).toBeNull();
  });

  it('refuses what is not one closed element', () => {
    expect(() => readXml('<A><B></A>')).toThrow(/^XML: Expected closing tag 'B'/);
    expect(() => readXml('<A>')).toThrow(/^XML: Unclosed tag 'A'/);
    expect(() => readXml('not xml')).toThrow(/^XML: /);
  });

  it('escapes text for a request', () => {
    expect(escapeXml(`A&B <"c"> 'd'`)).toBe('A&amp;B &lt;&quot;c&quot;&gt; &apos;d&apos;');
    expect(textAt(readXml(`<S>${escapeXml('x<&>"y')}</S>`))).toBe('x<&>"y');
  });
});
