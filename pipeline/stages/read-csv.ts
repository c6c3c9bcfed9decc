/**
 * The one CSV reader of the curated tables (official calendars, holiday corrections): the header must be
 * exactly as documented, and every parse error names the file.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

/** Parses a CSV whose first line must be `header`; rows as records with the line they start on. */
export function readCsv(path: string, header: string): { line: number; row: Record<string, string> }[] {
  const text = readFileSync(path, 'utf8');
  if (text.split(/\r?\n/, 1)[0] !== header) throw new Error(`${path}: the header must be "${header}"`);
  try {
    const records = parse(text, { columns: true, skip_empty_lines: true, trim: true, info: true }) as { record: Record<string, string>; info: { lines: number } }[];
    return records.map((r) => ({ line: r.info.lines, row: r.record }));
  } catch (err) {
    throw new Error(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
