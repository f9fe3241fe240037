import type { OutboundResponse } from '../../../net/outbound.js';
import { ChannelCallError, type ChannelEnv } from '../http.js';
import { MAX_429 } from '../rate-limit.js';
import { authorizedCall, type Judged } from '../token-call.js';
import { text, type ChannelVariant, type OpenConnection } from '../types.js';
import { ebayToken } from './auth.js';
import { all, escapeXml, one, readXml, textAt, type XmlNode } from './xml.js';

// The eBay Trading API (XML over POST {api_base_url}/ws/api.dll), for listings made outside the
// Sell Inventory API (Seller Hub, the Trading API itself): an inventory-model listing refuses
// Trading revisions, and a Trading listing is no inventory item, so each kind takes its own API
// (docs/sales-channels.md §eBay). The seller's OAuth User access token goes in
// X-EBAY-API-IAF-TOKEN. eBay answers HTTP 200 with <Ack>Failure</Ack> and <Errors> for most
// refusals, among them an expired token and the call limits, read here like the REST 401 and 429.

const COMPATIBILITY_LEVEL = '1451';
/** Site 0 (US) in the header: both calls name the seller's listings by ItemID (a seller of another site is not checked against eBay). */
const SITE_ID = '0';
/** Trading error codes of an invalid or expired token (931 Auth token is invalid, 932 hard expired, 21916984 invalid and 21917053 expired IAF token). */
const TOKEN_ERRORS = new Set(['931', '932', '21916984', '21917053']);
/** The call limits (518 the daily call usage limit, 21919144 the short-duration limit of ReviseInventoryStatus and a few other calls). */
const RATE_ERRORS = new Set(['518', '21919144']);
/** ReviseInventoryStatus takes at most four InventoryStatus containers per call. */
export const REVISE_BATCH = 4;
/** GetMyeBaySelling: at most 200 entries per page. */
const SELLING_PAGE = 200;

/** The marker discovery stores as the variant's remote_inventory_item_id: a Trading listing, item or variation, and its ItemID. */
export const tradingMarker = (kind: 'item' | 'variation', itemId: string) => `trading:${kind}:${itemId}`;
export function parseMarker(v: string | null): { kind: 'item' | 'variation'; itemId: string } | null {
  const m = v?.match(/^trading:(item|variation):(.+)$/);
  return m ? { kind: m[1] as 'item' | 'variation', itemId: m[2]! } : null;
}

interface TradingAnswer {
  doc: XmlNode;
  ack: string;
  /** The blocking errors (SeverityCode Error): eBay's LongMessage, or ShortMessage, with its code. */
  errors: { code: string; message: string }[];
}

function answerOf(body: Buffer, call: string): TradingAnswer {
  let doc: XmlNode;
  try {
    doc = readXml(body.toString('utf8'));
  } catch (err) {
    throw new ChannelCallError(`eBay ${call}: the answer is not XML (${(err as Error).message})`);
  }
  const errors = all(doc, 'Errors')
    .filter((e) => textAt(e, 'SeverityCode') !== 'Warning')
    .map((e) => ({
      code: textAt(e, 'ErrorCode') ?? '?',
      message: textAt(e, 'LongMessage') ?? textAt(e, 'ShortMessage') ?? 'no message',
    }));
  return { doc, ack: textAt(doc, 'Ack') ?? 'Failure', errors };
}

/** One Trading call: `inner` is the request element's content. A Failure Ack is the caller's to read, except a token or call-limit one. */
export function tradingCall(conn: OpenConnection, env: ChannelEnv, call: string, inner: string): Promise<TradingAnswer> {
  return authorizedCall(env, {
    platform: 'ebay',
    url: `${conn.api_base_url}/ws/api.dll`,
    method: 'POST',
    body: `<?xml version="1.0" encoding="utf-8"?><${call}Request xmlns="urn:ebay:apis:eBLBaseComponents">${inner}</${call}Request>`,
    // Both calls are safe to send again: a read, and absolute quantities.
    retrySafe: true,
    headers: (token) => ({
      'content-type': 'text/xml',
      'x-ebay-api-call-name': call,
      'x-ebay-api-siteid': SITE_ID,
      'x-ebay-api-compatibility-level': COMPATIBILITY_LEVEL,
      'x-ebay-api-iaf-token': token,
    }),
    token: (force) => ebayToken(conn, env, { force }),
    judge: (res) => judgeTrading(res, call),
  });
}

/** eBay answers a refusal with HTTP 200 and an Ack; another status is the HTTP layer's (its body need not be XML). */
function judgeTrading(res: OutboundResponse, call: string): Judged<TradingAnswer> {
  const a = res.status === 200 ? answerOf(res.body, call) : null;
  const codes = a?.errors.map((e) => e.code) ?? [];
  const token = codes.some((c) => TOKEN_ERRORS.has(c));
  const limited = res.status === 429 || codes.some((c) => RATE_ERRORS.has(c));
  if (a && !token && !limited) return { value: a };
  const words = a?.errors.map((e) => `${e.message} (error ${e.code})`).join('; ') || `HTTP ${res.status}`;
  const error = () => {
    if (limited) return new ChannelCallError(`eBay ${call}: call limit reached after ${MAX_429} waits: ${words}`, false, 429);
    if (!a) return new ChannelCallError(`eBay ${call}: ${words}`, res.status < 500, res.status);
    return new ChannelCallError(`eBay refused the access token: ${words}`, true, 401);
  };
  return { expired: res.status === 401 || token, limited, error };
}

/** Sets the quantities of Trading listings, four per ReviseInventoryStatus call; returns eBay's refusals (empty: all set). */
export async function reviseQuantities(
  conn: OpenConnection,
  env: ChannelEnv,
  items: { remote_id: string; inventory_item_id: string | null; quantity: number }[],
): Promise<string[]> {
  const refused: string[] = [];
  for (let i = 0; i < items.length; i += REVISE_BATCH) {
    const batch = items.slice(i, i + REVISE_BATCH).map((x) => ({ ...x, m: parseMarker(x.inventory_item_id)! }));
    // A single-variation listing is named by its ItemID (the default tracking method); a variation needs its SKU too.
    const statuses = batch.map(
      (x) =>
        `<InventoryStatus><ItemID>${escapeXml(x.m.itemId)}</ItemID>${x.m.kind === 'variation' ? `<SKU>${escapeXml(x.remote_id)}</SKU>` : ''}<Quantity>${x.quantity}</Quantity></InventoryStatus>`,
    );
    const a = await tradingCall(conn, env, 'ReviseInventoryStatus', statuses.join(''));
    if (a.ack === 'Failure' || a.ack === 'PartialFailure') {
      const names = batch.map((x) => (x.m.kind === 'variation' ? `${x.m.itemId}/${x.remote_id}` : x.m.itemId)).join(', ');
      refused.push(`${names}: ${a.errors.map((e) => `${e.message} (error ${e.code})`).join('; ') || a.ack}`);
    }
  }
  return refused;
}

/** A price's text as a number; null when absent or not a number. */
const price = (s: string | null) => (s !== null && Number.isFinite(Number(s)) ? Number(s) : null);
/** ListingType values ReviseInventoryStatus takes (fixed-price listings only); an auction's quantity is left alone. */
const FIXED_PRICE = new Set(['FixedPriceItem', 'StoresFixedPrice']);

function variantsOf(item: XmlNode): ChannelVariant[] {
  const itemId = textAt(item, 'ItemID');
  const type = textAt(item, 'ListingType');
  if (!itemId || (type && !FIXED_PRICE.has(type))) return [];
  const title = textAt(item, 'Title');
  const base = {
    product_listing_id: itemId,
    product_listing_name: title,
    barcode: null,
    image_url: textAt(item, 'PictureDetails', 'GalleryURL'),
    currency: one(one(item, 'SellingStatus'), 'CurrentPrice')?.attrs.currencyID ?? null,
    hs_code: null,
    country_of_origin: null,
    weight: null,
    weight_unit: null,
  };
  const variations = all(one(item, 'Variations'), 'Variation');
  // A listing or variation without a SKU is skipped: discovery links variants to products by SKU.
  if (variations.length)
    return variations.flatMap((v) => {
      const sku = textAt(v, 'SKU');
      if (!sku) return [];
      const marker = tradingMarker('variation', itemId);
      const name = textAt(v, 'VariationTitle') ?? title;
      return [{ ...base, remote_id: sku, remote_inventory_item_id: marker, sku, name, price: price(textAt(v, 'StartPrice')) }];
    });
  const sku = text(textAt(item, 'SKU'));
  if (!sku) return [];
  const marker = tradingMarker('item', itemId);
  return [
    {
      ...base,
      remote_id: sku,
      remote_inventory_item_id: marker,
      sku,
      name: title,
      price: price(textAt(item, 'SellingStatus', 'CurrentPrice')),
    },
  ];
}

/** One page (1 first) of the seller's active listings (GetMyeBaySelling ActiveList) as listing variants, and whether more follow. */
export async function activeListings(conn: OpenConnection, env: ChannelEnv, page: number) {
  const a = await tradingCall(
    conn,
    env,
    'GetMyeBaySelling',
    `<ActiveList><Include>true</Include><Pagination><EntriesPerPage>${SELLING_PAGE}</EntriesPerPage><PageNumber>${page}</PageNumber></Pagination></ActiveList>`,
  );
  if (a.ack === 'Failure')
    throw new ChannelCallError(`eBay GetMyeBaySelling: ${a.errors.map((e) => `${e.message} (error ${e.code})`).join('; ')}`, true);
  const list = one(a.doc, 'ActiveList');
  const pages = Number(textAt(list, 'PaginationResult', 'TotalNumberOfPages') ?? 0);
  return { items: all(one(list, 'ItemArray'), 'Item').flatMap(variantsOf), more: page < pages };
}
