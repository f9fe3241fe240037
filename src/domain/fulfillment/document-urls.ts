// Absolute URLs of the documents fos renders for a package (the documents area renders them; the
// package's fields carry these) (spec 2.7 label_url, packing_slip_url,
// label_with_packing_slip_url). `origin` is scheme://host of the request that created the
// package or bought the label, so a URL works for whoever saw it in the response. The routes
// behind them are in src/server/routes/ops/packages.ts and answer the fulfiller team only.

import type { LabelFormat } from '../../contract/enums.js';

const base = (origin: string, packageId: string) => `${origin}/v1/ops/packages/${packageId}`;

/** The label_url of a bought label (PDF, or ZPL when asked). */
export const labelDocumentUrl = (origin: string, packageId: string, format: LabelFormat) =>
  `${base(origin, packageId)}/label${format === 'ZPL' ? '?format=zpl' : ''}`;

/** Every package's packing slip (PDF). */
export const packingSlipUrl = (origin: string, packageId: string) => `${base(origin, packageId)}/packing-slip`;

/** A bought label followed by the packing slip, one PDF (whatever the label's own format). */
export const labelWithPackingSlipUrl = (origin: string, packageId: string) => `${base(origin, packageId)}/label-with-packing-slip`;
