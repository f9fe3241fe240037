// Import-free constants of carrier invoice imports (the CLI batches by it).

/** Lines per import request; the CLI splits larger files. */
export const MAX_INVOICE_LINES = 1_000;
