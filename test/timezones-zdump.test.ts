/**
 * Differential test: for every zone, the offset history we publish equals
 * what glibc's zdump reads from the same tzdata release compiled by zic.
 * Our side is lib/tzif.ts + lib/posix-tz.ts (TZif tables and POSIX footers);
 * zdump is an independent implementation of the same reading.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findZic } from '../pipeline/stages/ingest-timezones.js';
import { DATA_DIR } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');
const V1 = join(DATA_DIR, 'v1', 'timezones');
const index = JSON.parse(readFileSync(join(V1, 'index.json'), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'refdata-zdump-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
type Line = { at: number; abbreviation: string; is_dst: boolean; offset_minutes: number };

/** zdump -v lines per zone: "<zone>  Sun Mar  8 07:00:00 2026 UT = ... EDT isdst=1 gmtoff=-14400". */
function zdump(ids: string[]): Map<string, Line[]> {
  const out = execFileSync('zdump', ['-v', '-c', '1800,2046', ...ids.map((id) => join(dir, id))], { maxBuffer: 1 << 28 }).toString();
  const byZone = new Map<string, Line[]>();
  const re = /^(\S+)\s+\w{3} (\w{3})\s+(\d+) (\d\d):(\d\d):(\d\d) (-?\d+) UT = .* (\S+) isdst=(\d) gmtoff=(-?\d+)$/;
  for (const line of out.split('\n')) {
    const m = re.exec(line);
    if (!m) continue;
    const id = m[1].slice(dir.length + 1);
    const at = Date.UTC(Number(m[7]), MONTHS.indexOf(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
    const list = byZone.get(id) ?? [];
    list.push({ at, abbreviation: m[8], is_dst: m[9] === '1', offset_minutes: Number(m[10]) / 60 });
    byZone.set(id, list);
  }
  return byZone;
}

describe('every zone agrees with zdump on the same tzdata', () => {
  execFileSync(findZic(), ['-b', 'fat', '-d', dir, join(ROOT, 'sources', 'tzdata', 'tzdata.zi')]);
  const ids: string[] = index.zones.map((z: { id: string }) => z.id);
  const dumped = zdump(ids);

  it('covers all 418 zone.tab zones', () => {
    expect(ids).toHaveLength(418);
    expect(dumped.size).toBe(418);
  });

  for (const id of ids) {
    it(id, () => {
      const doc = JSON.parse(readFileSync(join(V1, 'zones', `${id}.json`), 'utf8'));
      const start = Date.parse(doc.window.start);
      const end = Date.parse(doc.window.end);
      // zdump prints each change as a pair: the last second before it and the first second of it.
      const lines = dumped.get(id)!;
      const changes: Line[] = [];
      for (let i = 1; i < lines.length; i++) {
        const [a, b] = [lines[i - 1], lines[i]];
        if (b.at - a.at === 1000 && (a.offset_minutes !== b.offset_minutes || a.is_dst !== b.is_dst || a.abbreviation !== b.abbreviation)) changes.push(b);
      }
      // The state at the window start: the last change before it, or (for a zone founded later,
      // like Antarctica/Troll in 2005) the state zdump shows just before its first change.
      const before = changes.filter((c) => c.at <= start).pop() ?? lines.find((l) => l.at > start);
      expect(before, 'zdump shows the state in force at the window start').toBeDefined();
      if (before) expect({ ...doc.initial, offset: undefined }).toEqual({ offset: undefined, abbreviation: before.abbreviation, is_dst: before.is_dst, offset_minutes: before.offset_minutes });
      const inside = changes.filter((c) => c.at > start && c.at < end).map((c) => ({ at: new Date(c.at).toISOString().replace('.000Z', 'Z'), offset_minutes: c.offset_minutes, is_dst: c.is_dst, abbreviation: c.abbreviation }));
      const ours = doc.transitions.map((t: Line & { at: string }) => ({ at: t.at, offset_minutes: t.offset_minutes, is_dst: t.is_dst, abbreviation: t.abbreviation }));
      expect(ours).toEqual(inside);
    });
  }
});
