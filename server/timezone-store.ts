/**
 * Time zones for the lookup layer: every zone document is loaded at start
 * (456 small files: the zone.tab zones and the zones outside it) into a
 * timeline. Answers for the request instant are computed and their JSON text
 * cached until the zone's next transition, so a DST change needs no rebuild
 * and the hot path returns precomputed bytes; answers for another instant
 * (`at`) and transition lists are computed per request (microseconds).
 * The same timelines are the clock of every other area (astronomy, today at a
 * business-day location): one tzdata for the whole service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paginate, type PageParams } from '../lib/paginate.js';
import { formatInstant } from '../lib/rfc3339.js';
import { zoneDocumentPath } from '../lib/zone-file.js';
import { buildTimeline, formatOffset, localDateAt, stateIndexAt, transitionsBetween, type ZoneTimeline } from '../lib/zone-timeline.js';
import { utf8 } from './answer-headers.js';
import type { Timezone, TimezoneList, TimezonesIndex, TimezoneTransitions, TimezoneZone } from '../lib/schema-types.js';

interface Zone {
  doc: TimezoneZone;
  timeline: ZoneTimeline;
}

export interface Cached {
  /** UTF-8 bytes of the answer: encoding on every request would cost a third of the throughput. */
  text: Uint8Array<ArrayBuffer>;
  /** The text is valid for instants in [from, until). */
  from: number;
  until: number;
}

/** Which zones a list holds: zone.tab's (the default), or every zone served. */
export type ListScope = 'zone.tab' | 'all';

export class TimezoneStore {
  readonly index: TimezonesIndex;
  /** The instants every zone's transitions cover: [start, end) in ms (1900 to 2101). */
  readonly window: { start: number; end: number };
  private readonly zones = new Map<string, Zone>();
  private readonly ids: Record<ListScope, string[]>;
  /** Lower-cased canonical ids and aliases -> canonical id. */
  private readonly lookup = new Map<string, string>();
  /** Lower-cased canonical ids and aliases -> their tzdata spelling. */
  private readonly spellings = new Map<string, string>();
  private readonly zoneCache = new Map<string, Cached>();
  private readonly pageCache = new Map<string, Cached>();

  constructor(root: string) {
    const read = <T>(p: string) => JSON.parse(readFileSync(join(root, 'v1', p), 'utf8')) as T;
    this.index = read<TimezonesIndex>('timezones/index.json');
    // A dataset built before the zones outside zone.tab were served has no other_zones: it still loads.
    const all = [...this.index.zones, ...(this.index.other_zones ?? [])];
    for (const s of all) {
      const doc = read<TimezoneZone>(zoneDocumentPath(s.id));
      const timeline = buildTimeline(
        doc.initial,
        doc.transitions.map((t) => ({ at_ms: Date.parse(t.at), state: t })),
      );
      this.zones.set(s.id, { doc, timeline });
      for (const name of [s.id, ...s.aliases]) {
        this.lookup.set(name.toLowerCase(), s.id);
        this.spellings.set(name.toLowerCase(), name);
      }
    }
    this.ids = { 'zone.tab': this.index.zones.map((z) => z.id), all: all.map((z) => z.id).sort() };
    const { window } = this.zones.get(all[0].id)!.doc;
    this.window = { start: Date.parse(window.start), end: Date.parse(window.end) };
  }

  /** The canonical id for an id or alias (case-insensitive), if known. */
  resolve(id: string): string | undefined {
    return this.lookup.get(id.toLowerCase());
  }

  /** An id or alias in tzdata's spelling (`asia/calcutta` -> `Asia/Calcutta`), if known. */
  spelling(id: string): string | undefined {
    return this.spellings.get(id.toLowerCase());
  }

  /**
   * The offset history of a zone (id or alias, any letter case), for anything
   * that converts instants to local time (astronomy, "today" at a location):
   * one clock, our tzdata, for every area.
   */
  timeline(id: string): ZoneTimeline | undefined {
    const canonical = this.resolve(id);
    return canonical === undefined ? undefined : this.zones.get(canonical)!.timeline;
  }

  /** Today's date (YYYY-MM-DD) in a zone the dataset serves. */
  today(id: string, nowMs: number): string {
    const timeline = this.timeline(id);
    if (!timeline) throw new Error(`no time zone ${id} in the dataset`);
    return localDateAt(timeline, nowMs);
  }

  /** The zone's tzdata release. */
  get tzdataVersion(): string {
    return this.index.tzdata_version;
  }

  /**
   * The zone as of `ms`, with the instants between which that answer holds;
   * `at` echoes the instant when it was asked for rather than taken from the clock.
   */
  zoneAt(id: string, ms: number, at?: 'echo'): { body: Timezone; from: number; until: number } {
    const { doc, timeline } = this.zones.get(id)!;
    const i = stateIndexAt(timeline, ms);
    const s = timeline.states[i];
    const next = doc.transitions[i] ?? null; // transitions[i] starts states[i + 1]
    const body: Timezone = {
      id: doc.id,
      name: doc.name,
      ...(at ? { at: formatInstant(ms) } : {}),
      offset: formatOffset(s.offset_minutes),
      offset_minutes: s.offset_minutes,
      ...(doc.country ? { country: doc.country } : {}),
      standard_offset: formatOffset(s.standard_offset_minutes),
      standard_offset_minutes: s.standard_offset_minutes,
      is_dst: s.is_dst,
      abbreviation: s.abbreviation,
      next_transition: next,
      aliases: doc.aliases,
    };
    return { body, from: timeline.starts[i], until: timeline.starts[i + 1] ?? Infinity };
  }

  /** JSON bytes of one zone at `ms` and the instants they hold between, cached until its next transition. */
  zoneText(id: string, ms: number): Cached {
    const hit = this.zoneCache.get(id);
    if (hit && ms >= hit.from && ms < hit.until) return hit;
    const { body, from, until } = this.zoneAt(id, ms);
    const cached = { text: utf8.encode(JSON.stringify(body)), from, until };
    this.zoneCache.set(id, cached);
    return cached;
  }

  /** JSON of a list page at `ms`; `at` as in zoneAt. */
  page(params: PageParams, scope: ListScope, ms: number, at?: 'echo'): { body: TimezoneList; from: number; until: number } {
    const page = paginate(this.ids[scope], params);
    let from = -Infinity;
    let until = Infinity;
    const data = page.data.map((id) => {
      const z = this.zoneAt(id, ms, at);
      from = Math.max(from, z.from);
      until = Math.min(until, z.until);
      return z.body;
    });
    return { body: { data, pagination: page.pagination }, from, until };
  }

  /** JSON bytes of a list page at `ms`, cached until any of its zones changes. */
  pageText(params: PageParams, ms: number, scope: ListScope = 'zone.tab'): Cached {
    const key = `${scope}/${params.page}/${params.per_page}`;
    const hit = this.pageCache.get(key);
    if (hit && ms >= hit.from && ms < hit.until) return hit;
    const { body, from, until } = this.page(params, scope, ms);
    const cached = { text: utf8.encode(JSON.stringify(body)), from, until };
    if (this.pageCache.size > 2000) this.pageCache.clear(); // bounded: at most 2 x 100 x 456 keys are possible
    this.pageCache.set(key, cached);
    return cached;
  }

  /** The zone's transitions in [fromMs, untilMs) (clipped to the window) and the state at fromMs. */
  transitions(id: string, year: number | null): TimezoneTransitions {
    const { doc, timeline } = this.zones.get(id)!;
    const from = year === null ? this.window.start : Date.UTC(year, 0, 1);
    const until = year === null ? this.window.end : Date.UTC(year + 1, 0, 1);
    const { initial, first, end } = transitionsBetween(timeline, from, until);
    const s = timeline.states[initial];
    return {
      id: doc.id,
      year,
      from: formatInstant(from),
      until: formatInstant(until),
      tzdata_version: doc.tzdata_version,
      initial: { offset: formatOffset(s.offset_minutes), offset_minutes: s.offset_minutes, abbreviation: s.abbreviation, is_dst: s.is_dst },
      transitions: doc.transitions.slice(first, end),
    };
  }
}
