import { StringDecoder } from 'node:string_decoder';

// Reading an export (GET …/export): its NDJSON or CSV arrives in chunks that do not respect line
// ends (nor UTF-8 characters). ExportTally follows the lines that have passed, so an interrupted
// export can say how many records arrived and the id to resume after; exportRecords parses NDJSON
// into records for `--all`, a line at a time (memory stays flat however long the export).

/** A CSV record's first line starts with its id (a UUID); a quoted cell's later lines do not, in practice. */
const CSV_RECORD = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12},/i;

/** Counts complete records and remembers the last one's id (NDJSON: its `id`; CSV: the first column, `id`). */
export class ExportTally {
  records = 0;
  lastId: string | undefined;
  private partial = '';
  private readonly decoder = new StringDecoder('utf8');

  constructor(readonly format: 'ndjson' | 'csv') {}

  /** Takes the next chunk of the body; returns its complete lines (the rest waits for the next chunk). */
  take(chunk: Buffer | string): string[] {
    const text = this.partial + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    const end = text.lastIndexOf('\n');
    if (end < 0) {
      this.partial = text;
      return [];
    }
    this.partial = text.slice(end + 1);
    const lines = text.slice(0, end).split('\n');
    for (const line of lines) {
      if (this.format === 'ndjson' ? !line : !CSV_RECORD.test(line)) continue;
      this.records += 1;
      this.lastId = this.format === 'csv' ? line.slice(0, 36) : undefined;
    }
    if (this.format === 'ndjson' && lines.at(-1)) this.lastId = (JSON.parse(lines.at(-1)!) as { id?: string }).id;
    return lines;
  }
}

/** The records of an NDJSON export body. */
export async function* exportRecords<T>(body: AsyncIterable<Buffer | string>, tally = new ExportTally('ndjson')): AsyncGenerator<T> {
  for await (const chunk of body) {
    for (const line of tally.take(chunk)) if (line) yield JSON.parse(line) as T;
  }
}
