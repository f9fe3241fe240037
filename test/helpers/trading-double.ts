// The eBay Trading API part of the eBay double (developer.ebay.com Trading API reference):
// POST /ws/api.dll with X-EBAY-API-CALL-NAME, -SITEID, -COMPATIBILITY-LEVEL and the OAuth user
// token in X-EBAY-API-IAF-TOKEN, an XML <CallRequest xmlns="urn:ebay:apis:eBLBaseComponents">,
// answered HTTP 200 with <Ack>Success|Warning|Failure</Ack> and <Errors>. It serves
// GetMyeBaySelling (ActiveList, Pagination) and ReviseInventoryStatus (one to four
// InventoryStatus; a variation needs ItemID and SKU; an unknown ItemID fails the call, nothing set).
// It reads requests with regular expressions, not with fos's reader, so a reader bug shows.

import type { IncomingMessage, ServerResponse } from 'node:http';

export interface TradingListing {
  ItemID: string;
  Title: string;
  /** A single-variation listing's SKU (optional on eBay). */
  SKU?: string;
  /** A single-variation listing's available quantity. */
  Quantity?: number;
  /** A multiple-variation listing's variations (SKU required by ReviseInventoryStatus). */
  Variations?: { SKU: string; Quantity: number; StartPrice?: number }[];
  Price?: number;
  /** FixedPriceItem unless set (Chinese: an auction). */
  ListingType?: string;
}

const NS = 'urn:ebay:apis:eBLBaseComponents';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const tag = (xml: string, name: string) => xml.match(new RegExp(`<${name}>([^<]*)</${name}>`))?.[1];

type TradingError = { code: string; short: string; long: string; severity?: 'Error' | 'Warning' };

function answer(res: ServerResponse, call: string, errors: TradingError[], inner = '') {
  const ack = errors.some((e) => (e.severity ?? 'Error') === 'Error') ? 'Failure' : errors.length ? 'Warning' : 'Success';
  const errs = errors
    .map(
      (e) =>
        `<Errors><ShortMessage>${esc(e.short)}</ShortMessage><LongMessage>${esc(e.long)}</LongMessage><ErrorCode>${e.code}</ErrorCode><SeverityCode>${e.severity ?? 'Error'}</SeverityCode><ErrorClassification>RequestError</ErrorClassification></Errors>`,
    )
    .join('');
  res
    .writeHead(200, { 'content-type': 'text/xml;charset=utf-8' })
    .end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<${call}Response xmlns="${NS}"><Timestamp>${new Date().toISOString()}</Timestamp><Ack>${ack}</Ack>${errs}<Version>1451</Version><Build>E1451_CORE_API</Build>${inner}</${call}Response>`,
    );
}

function itemXml(l: TradingListing) {
  const price = `<SellingStatus><CurrentPrice currencyID="USD">${(l.Price ?? 10).toFixed(2)}</CurrentPrice></SellingStatus>`;
  const vars = l.Variations
    ? `<Variations>${l.Variations.map((v) => `<Variation><SKU>${esc(v.SKU)}</SKU><Quantity>${v.Quantity}</Quantity><StartPrice currencyID="USD">${(v.StartPrice ?? 10).toFixed(2)}</StartPrice><VariationTitle>${esc(l.Title)}[${esc(v.SKU)}]</VariationTitle></Variation>`).join('')}</Variations>`
    : '';
  const sku = l.SKU ? `<SKU>${esc(l.SKU)}</SKU>` : '';
  return `<Item><ItemID>${l.ItemID}</ItemID><ListingType>${l.ListingType ?? 'FixedPriceItem'}</ListingType><Quantity>${l.Quantity ?? 0}</Quantity>${sku}${price}<Title>${esc(l.Title)}</Title>${vars}</Item>`;
}

function selling(res: ServerResponse, raw: string, listings: Map<string, TradingListing>) {
  const per = Number(tag(raw, 'EntriesPerPage') ?? 25);
  const page = Number(tag(raw, 'PageNumber') ?? 1);
  if (tag(raw, 'Include') !== 'true') return answer(res, 'GetMyeBaySelling', []);
  if (!(per >= 1 && per <= 200))
    return answer(res, 'GetMyeBaySelling', [{ code: '37', short: 'Input data is invalid.', long: 'EntriesPerPage must be 1 to 200.' }]);
  const all = [...listings.values()];
  const pages = Math.max(1, Math.ceil(all.length / per));
  const list = all.slice((page - 1) * per, page * per);
  const arr = list.length ? `<ItemArray>${list.map(itemXml).join('')}</ItemArray>` : '';
  answer(
    res,
    'GetMyeBaySelling',
    [],
    `<ActiveList>${arr}<PaginationResult><TotalNumberOfPages>${pages}</TotalNumberOfPages><TotalNumberOfEntries>${all.length}</TotalNumberOfEntries></PaginationResult></ActiveList>`,
  );
}

function revise(res: ServerResponse, raw: string, listings: Map<string, TradingListing>) {
  const statuses = [...raw.matchAll(/<InventoryStatus>([\s\S]*?)<\/InventoryStatus>/g)].map((m) => ({
    itemId: tag(m[1]!, 'ItemID'),
    sku: tag(m[1]!, 'SKU'),
    quantity: tag(m[1]!, 'Quantity'),
  }));
  const call = 'ReviseInventoryStatus';
  if (!statuses.length || statuses.length > 4)
    return answer(res, call, [
      { code: '21916576', short: 'Too many InventoryStatus.', long: 'You can revise 1 to 4 items or variations per call.' },
    ]);
  const errors: TradingError[] = [];
  const sets: (() => void)[] = [];
  for (const s of statuses) {
    const l = s.itemId ? listings.get(s.itemId) : undefined;
    const q = Number(s.quantity);
    if (!l) {
      errors.push({
        code: '17',
        short: 'Item cannot be accessed.',
        long: `This item (${s.itemId}) cannot be accessed because the listing has been deleted or you are not the seller.`,
      });
      continue;
    }
    if (!Number.isInteger(q) || q < 0)
      errors.push({ code: '21916587', short: 'Invalid quantity.', long: `Quantity ${s.quantity} is invalid.` });
    else if (l.Variations) {
      const v = l.Variations.find((x) => x.SKU === s.sku);
      if (!v)
        errors.push({ code: '21916799', short: 'SKU Mismatch', long: 'SKU does not exist in Non-ManageBySKU item specified by ItemID.' });
      else sets.push(() => (v.Quantity = q));
    } else if (s.sku && s.sku !== l.SKU)
      errors.push({ code: '21916799', short: 'SKU Mismatch', long: 'SKU does not exist in Non-ManageBySKU item specified by ItemID.' });
    else sets.push(() => (l.Quantity = q));
  }
  if (errors.length) return answer(res, call, errors);
  for (const set of sets) set();
  const echo = statuses.map(
    (s) =>
      `<InventoryStatus><ItemID>${s.itemId}</ItemID>${s.sku ? `<SKU>${esc(s.sku)}</SKU>` : ''}<Quantity>${s.quantity}</Quantity></InventoryStatus>`,
  );
  answer(res, call, [], echo.join(''));
}

export function trading(
  req: IncomingMessage,
  raw: string,
  res: ServerResponse,
  ctx: { listings: Map<string, TradingListing>; valid: Set<string>; faults: Map<string, { n: number; code: string }> },
) {
  const h = req.headers;
  const call = String(h['x-ebay-api-call-name'] ?? '');
  if (req.method !== 'POST' || !/^text\/xml/.test(String(h['content-type'] ?? '')))
    return answer(res, call || 'Unknown', [{ code: '10012', short: 'Invalid value for header.', long: 'POST text/xml is required.' }]);
  if (!['GetMyeBaySelling', 'ReviseInventoryStatus'].includes(call))
    return answer(res, call || 'Unknown', [
      { code: '2', short: 'Unsupported API call.', long: `The API call "${call}" is invalid or not supported in this release.` },
    ]);
  if (h['x-ebay-api-siteid'] !== '0' || !/^\d+$/.test(String(h['x-ebay-api-compatibility-level'] ?? '')))
    return answer(res, call, [
      { code: '10012', short: 'Invalid value for header.', long: 'X-EBAY-API-SITEID and X-EBAY-API-COMPATIBILITY-LEVEL are required.' },
    ]);
  if (!ctx.valid.has(String(h['x-ebay-api-iaf-token'] ?? '')))
    return answer(res, call, [{ code: '21917053', short: 'Invalid IAF token.', long: 'IAF token supplied is invalid.' }]);
  if (!raw.startsWith('<?xml') || !raw.includes(`<${call}Request xmlns="${NS}">`) || !raw.trimEnd().endsWith(`</${call}Request>`))
    return answer(res, call, [{ code: '5', short: 'XML Parse error.', long: `The body is not a ${call}Request.` }]);
  const fault = ctx.faults.get(call);
  if (fault && fault.n > 0) {
    fault.n--;
    return answer(res, call, [
      { code: fault.code, short: 'Call usage limit has been reached.', long: 'Your application has exceeded usage limit on this call.' },
    ]);
  }
  return call === 'GetMyeBaySelling' ? selling(res, raw, ctx.listings) : revise(res, raw, ctx.listings);
}
