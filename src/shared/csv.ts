// CSV cells and lines, written the same way by the CLI (--format csv) and the server (exports).

/**
 * CSV (RFC 4180 quoting, LF line ends): a cell is quoted when it holds a comma, quote, CR/LF or
 * leading/trailing space; quotes are doubled. Objects and arrays are written as JSON.
 *
 * Formula injection (OWASP "CSV Injection"): a text cell starting with =, +, -, @, tab or CR would
 * run as a formula in a spreadsheet (a product named `=HYPERLINK(…)`), so it is prefixed with a
 * single quote and quoted. Numbers and booleans are written as they are (-5 stays a number).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\n`;
}
