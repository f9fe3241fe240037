// Nothing test reaches a customer: a test label's made-up tracking number (the rate-table
// carrier's "USP…", with a real carrier's tracking URL) must not reach an endpoint that forwards
// tracking to buyers. Every event that carries a label's tracking says whether the label is a
// test label (`test_label`, written by the producer, which has the label at hand:
// testLabelFlag in carrier-integrations/integrations.ts); an endpoint
// without `test: true` gets that event with the tracking number and URL set to null (the shape a
// label without tracking already has) and `test_label: true` saying why. The event still arrives:
// an integration that follows packages sees them labelled, voided and fulfilled as they were.

/** Payload keys that hold a tracking number or a tracking URL, wherever they are nested. */
export const TRACKING_KEYS = new Set(['tracking_code', 'tracking_url', 'tracking_number']);

const redact = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redact);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, TRACKING_KEYS.has(k) ? null : redact(v)]));
};

/**
 * The payload an endpoint is sent: as written, unless it is about a test label and the endpoint
 * is not a test endpoint (then without tracking). Deterministic, so every retry sends the same bytes.
 */
export function payloadFor(endpoint: { test: boolean }, payload: unknown): unknown {
  const about = payload as { test_label?: unknown } | null;
  if (endpoint.test || !about || typeof about !== 'object' || about.test_label !== true) return payload;
  return redact(payload);
}
