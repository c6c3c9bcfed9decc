/**
 * Differential test against zdump, glibc's independent reader of compiled
 * zones: for every zone we serve, (1) the offset history we publish equals
 * what `zdump -i` prints for the dataset's window (1900-2100), and (2) `GET /v1/timezones/{id}?at=`
 * answers, at a spread of instants and on both sides of every transition,
 * the state zdump gives for that instant and zdump's next transition.
 *
 * Both sides read the same tzdata release: the system's zoneinfo is Debian's
 * own release (2025b on the machine this was written on), older than our
 * vendored one, so sources/tzdata/tzdata.zi is compiled here with the
 * system's zic into a temporary folder and zdump reads those files. Our side
 * is lib/tzif.ts + lib/posix-tz.ts (TZif tables and POSIX footers) through
 * the dataset and the API.
 *
 * One rule explains every disagreement: zdump keeps the seconds of local mean
 * time and the other pre-1937 offsets (Dublin Mean Time -0:25:21, Monrovia's
 * -0:44:30 until 1972); we publish whole minutes (the Offset format ±HH:MM and
 * offset_minutes, as spec 2.1 has them), rounded half up (-44.5 min is -44).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findZic } from '../pipeline/stages/ingest-timezones.js';
import { TZ_FIRST_YEAR, TZ_LAST_YEAR } from '../pipeline/config.js';
import { zoneDocumentPath } from '../lib/zone-file.js';
import type { TimezonesIndex, TimezoneZone } from '../lib/schema-types.js';
import { appAt, DATA_DIR, FULL, getJson, requirePackage, runs } from './helpers.js';

const run = promisify(execFile);

const ROOT = join(import.meta.dirname, '..');
const V1 = join(DATA_DIR, 'v1');
const index = JSON.parse(readFileSync(join(V1, 'timezones', 'index.json'), 'utf8')) as TimezonesIndex;
const dir = mkdtempSync(join(tmpdir(), 'refdata-zdump-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A state as zdump prints it, offsets in seconds (zdump keeps the seconds our minutes drop). */
interface State { offset_seconds: number; abbreviation: string; is_dst: boolean }
interface Change extends State { at: number }
interface Dump { initial: State; changes: Change[] }

const seconds = (text: string) => {
  const m = /^([+-])(\d\d)(\d\d)?(\d\d)?$/.exec(text);
  if (!m) throw new Error(`zdump offset ${text}`);
  const s = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' && s ? -s : s; // "-00" (tzdata: offset unknown) is zero
};

/**
 * `zdump -i -c 1900,2101`: per zone the state at 1900-01-01T00:00:00Z
 * ("-<TAB>-<TAB>offset[<TAB>abbreviation][<TAB>1]") and each change as the
 * local date and time after it ("2026-03-08<TAB>03<TAB>-04<TAB>EDT<TAB>1");
 * an abbreviation equal to the numeric offset (-05) is left out, or empty before the DST flag.
 */
async function zdump(ids: string[]): Promise<Map<string, Dump>> {
  const { stdout: out } = await run('zdump', ['-i', '-c', `${TZ_FIRST_YEAR},${TZ_LAST_YEAR + 1}`, ...ids.map((id) => join(dir, id))], { maxBuffer: 1 << 28, encoding: 'utf8' });
  const dumps = new Map<string, Dump>();
  let current: Dump | undefined;
  for (const line of out.split('\n')) {
    const head = /^TZ="(.+)"$/.exec(line);
    if (head) {
      current = { initial: undefined as unknown as State, changes: [] };
      dumps.set(head[1].slice(dir.length + 1), current);
      continue;
    }
    if (!line || !current) continue;
    const [date, time, offset, ...rest] = line.split('\t');
    const is_dst = rest.at(-1) === '1';
    const state: State = { offset_seconds: seconds(offset), abbreviation: (is_dst ? rest.slice(0, -1) : rest)[0] || offset, is_dst };
    if (date === '-') {
      current.initial = state;
      continue;
    }
    const [y, mo, d] = date.split('-').map(Number);
    const [h, mi = 0, s = 0] = time.split(':').map(Number);
    current.changes.push({ at: Date.UTC(y, mo - 1, d, h, mi, s) - state.offset_seconds * 1000, ...state });
  }
  return dumps;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Our minutes for zdump's seconds: the same, or, where zdump has seconds, rounded half up (the one rule). */
const minutesFor = (s: State) => Math.round(s.offset_seconds / 60);
const WINDOW = [`${TZ_FIRST_YEAR}-01-01T00:00:00Z`, `${TZ_LAST_YEAR + 1}-01-01T00:00:00Z`];

requirePackage('libc-bin', runs(findZic(), ['--version']) && runs('zdump', ['--version']), 'zic and zdump');
// Awaited, not execFileSync: a worker blocked on a child for a minute misses vitest's RPC deadline (60 s).
await run(findZic(), ['-b', 'fat', '-d', dir, join(ROOT, 'sources', 'tzdata', 'tzdata.zi')]);
const ids = [...index.zones, ...index.other_zones].map((z) => z.id);
const dumped = await zdump(ids);
const stats = { zones: 0, instants: 0, disagreements: 0 };

describe('every zone agrees with zdump on the same tzdata', () => {
  it('covers every zone we serve: the 418 of zone.tab and the 39 outside it', () => {
    expect(index.zones).toHaveLength(418);
    expect(index.other_zones).toHaveLength(39);
    expect(dumped.size).toBe(ids.length);
  });

  for (const id of ids) {
    it(`${id}: the published history`, () => {
      const doc = JSON.parse(readFileSync(join(V1, zoneDocumentPath(id)), 'utf8')) as TimezoneZone;
      const { initial, changes } = dumped.get(id)!;
      expect([doc.window.start, doc.window.end]).toEqual(WINDOW);
      const state = (s: State) => ({ offset_minutes: minutesFor(s), abbreviation: s.abbreviation, is_dst: s.is_dst });
      expect({ offset_minutes: doc.initial.offset_minutes, abbreviation: doc.initial.abbreviation, is_dst: doc.initial.is_dst }).toEqual(state(initial));
      const ours = doc.transitions.map((t) => ({ at: t.at, offset_minutes: t.offset_minutes, abbreviation: t.abbreviation, is_dst: t.is_dst }));
      expect(ours).toEqual(changes.map((c) => ({ at: iso(c.at), ...state(c) })));
    });
  }
});

describe(`at= agrees with zdump at instants from ${TZ_FIRST_YEAR} to ${TZ_LAST_YEAR}`, () => {
  const app = appAt(new Date('2026-11-21T12:00:00Z'));
  const [start, end] = WINDOW.map(Date.parse);
  /**
   * Both sides of every change, two instants in a year, and the window's edges: every year in `npm run test:full`
   * (measured counts in the log line), every fifth year and this one in `npm test`.
   */
  function instants(changes: Change[]): number[] {
    const out = new Set<number>([start, end - 1000]);
    for (const c of changes) {
      if (c.at - 1000 >= start) out.add(c.at - 1000);
      out.add(c.at);
    }
    for (let y = TZ_FIRST_YEAR; y <= TZ_LAST_YEAR; y++) {
      if (!FULL && y % 5 !== 0 && y !== 2026) continue;
      out.add(Date.UTC(y, 0, 1));
      out.add(Date.UTC(y, 6, 1, 12, 34, 56));
    }
    return [...out].sort((a, b) => a - b);
  }

  for (const id of ids) {
    it(`${id}: ?at=`, async () => {
      const { initial, changes } = dumped.get(id)!;
      let compared = 0;
      for (const at of instants(changes)) {
        // zdump's state at `at`: its last change at or before it, else the state at the window's start.
        let k = -1;
        while (k + 1 < changes.length && changes[k + 1].at <= at) k++;
        const s = k >= 0 ? changes[k] : initial;
        const next = changes[k + 1];
        const { status, body } = await getJson(app, `/v1/timezones/${encodeURIComponent(id)}?at=${iso(at)}`, null);
        expect(status).toBe(200);
        const want = {
          at: iso(at),
          offset_minutes: minutesFor(s),
          abbreviation: s.abbreviation,
          is_dst: s.is_dst,
          next: next ? { at: iso(next.at), offset_minutes: minutesFor(next), abbreviation: next.abbreviation, is_dst: next.is_dst } : null,
        };
        const got = {
          at: body.at,
          offset_minutes: body.offset_minutes,
          abbreviation: body.abbreviation,
          is_dst: body.is_dst,
          next: body.next_transition && { at: body.next_transition.at, offset_minutes: body.next_transition.offset_minutes, abbreviation: body.next_transition.abbreviation, is_dst: body.next_transition.is_dst },
        };
        if (want.offset_minutes !== s.offset_seconds / 60) stats.disagreements++;
        expect(got, `${id} at ${iso(at)}`).toEqual(want);
        // The in-process app answers without leaving the microtask queue: let vitest's worker breathe.
        if (++compared % 256 === 0) await yieldToLoop();
      }
      stats.zones++;
      stats.instants += compared;
    }, 60_000);
  }

  afterAll(() => {
    console.log(`zdump: ${stats.zones} zones, ${stats.instants} instants compared through ?at=; ${stats.disagreements} answers are zdump's seconds rounded to whole minutes (local mean time and the other offsets with seconds)`);
  });
});
