// Rate shopping picks the cheapest service, which may be slower than the order asked for. After a
// bought label, `fos fulfill run` warns when the service's estimated transit days exceed what the
// order's shipping method asks (Overnight/Next Day 1, Two-Day/2nd Day 2, Expedited/Express 3); a
// CRITICAL order whose method says nothing about speed is held to 1 day. Nothing is known (no
// warning) when the carrier gives no estimate or the method names no speed.

const ASKS: [RegExp, number][] = [
  [/overnight|next[\s-]?day|same[\s-]?day/i, 1],
  [/two[\s-]?day|2[\s-]?day|2nd[\s-]?day|second[\s-]?day/i, 2],
  [/expedited|express|priority/i, 3],
];

/** Transit days the order asks for, or undefined when it does not say. */
export function daysAsked(shippingMethod: string | null | undefined, priority: string | null | undefined): number | undefined {
  const named = ASKS.find(([re]) => re.test(shippingMethod ?? ''))?.[1];
  return named ?? (priority === 'CRITICAL' ? 1 : undefined);
}

/** The warning for a label slower than the order asks, or undefined. */
export function slowerThanAsked(
  fo: { order_number: string; priority?: string | null; shipping_method?: string | null },
  label: { formatted_service?: string | null; delivery_days?: number | null } | null | undefined,
): string | undefined {
  const asked = daysAsked(fo.shipping_method, fo.priority);
  const days = label?.delivery_days;
  if (asked === undefined || days === null || days === undefined || days <= asked) return undefined;
  const why =
    fo.shipping_method && ASKS.some(([re]) => re.test(fo.shipping_method!))
      ? `shipping method "${fo.shipping_method}"`
      : `priority ${fo.priority}`;
  return `order ${fo.order_number}: the cheapest service${label?.formatted_service ? ` (${label.formatted_service})` : ''} takes about ${days} day(s), but its ${why} asks for ${asked}; void the label (fos packages void-label) and buy a faster one if it must arrive in time`;
}
