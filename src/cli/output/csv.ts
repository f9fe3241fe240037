/**
 * CSV (RFC 4180 quoting, LF line ends): a cell is quoted when it holds a comma, quote, CR/LF or
 * leading/trailing space; quotes are doubled. Objects and arrays are written as JSON.
 */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\n`;
}
