// Public tracking pages of common carriers, so uploaded labels get a tracking_url too.
const TEMPLATES: Array<[RegExp, (code: string) => string]> = [
  [/^ups\b/i, (c) => `https://www.ups.com/track?tracknum=${c}`],
  [/^usps\b/i, (c) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${c}`],
  [/^fedex\b/i, (c) => `https://www.fedex.com/fedextrack/?trknbr=${c}`],
  [/^dhl\b/i, (c) => `https://www.dhl.com/en/express/tracking.html?AWB=${c}`],
  [/^(canada ?post)\b/i, (c) => `https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=${c}`],
  [/^(royal ?mail)\b/i, (c) => `https://www.royalmail.com/track-your-item#/tracking-results/${c}`],
];

export function trackingUrl(carrier: string, code: string): string | null {
  const hit = TEMPLATES.find(([re]) => re.test(carrier.trim()));
  return hit ? hit[1](encodeURIComponent(code)) : null;
}

/** "ups" -> "ups", "Canada Post" -> "canada_post": a stable carrier_id from a display name. */
export const carrierSlug = (carrier: string) =>
  carrier
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '') || 'carrier';
