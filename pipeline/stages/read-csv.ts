/**
 * The one CSV reader of the curated tables (sources/holidays, workweeks, travel, seats, countries …): the
 * header must be exactly as documented, and every error names the file and the line. `checkUrl` is the one
 * check of a source URL every curated row goes through.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

/** Parses a CSV whose first line must be `header`; rows as records with the line they start on. */
export function readCsv(path: string, header: string): { line: number; row: Record<string, string>; where: string }[] {
  const text = readFileSync(path, 'utf8');
  if (text.split(/\r?\n/, 1)[0] !== header) throw new Error(`${path} line 1: the header must be "${header}"`);
  try {
    const records = parse(text, { columns: true, skip_empty_lines: true, trim: true, info: true }) as { record: Record<string, string>; info: { lines: number } }[];
    return records.map((r) => ({ line: r.info.lines, row: r.record, where: `${path} line ${r.info.lines}` }));
  } catch (err) {
    throw new Error(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** An http(s) URL with no spaces: what every source column must hold. */
export const SOURCE_URL_RE = /^https?:\/\/\S+$/;

/** Returns `url` when it is an http(s) URL; otherwise fails naming `where` and the column. */
export function checkUrl(url: string | undefined, where: string, column = 'source'): string {
  if (!SOURCE_URL_RE.test(url ?? '')) throw new Error(`${where}: ${column} must be an http(s) URL, got "${url ?? ''}"`);
  return url!;
}
