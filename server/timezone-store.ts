/**
 * Time zones for the lookup layer: every zone document is loaded at start
 * (418 small files) into a timeline; answers are computed for the request
 * instant and their JSON text cached until the zone's next transition, so a
 * DST change needs no rebuild and the hot path returns precomputed bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paginate, type PageParams } from '../lib/paginate.js';
import { buildTimeline, formatOffset, stateIndexAt, type ZoneTimeline } from '../lib/zone-timeline.js';
import { utf8 } from './answer-headers.js';
import type { Timezone, TimezoneList, TimezonesIndex, TimezoneZone } from '../lib/schema-types.js';

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

export class TimezoneStore {
  readonly index: TimezonesIndex;
  private readonly zones = new Map<string, Zone>();
  private readonly ids: string[];
  /** Lower-cased canonical ids and aliases -> canonical id. */
  private readonly lookup = new Map<string, string>();
  private readonly zoneCache = new Map<string, Cached>();
  private readonly pageCache = new Map<string, Cached>();

  constructor(root: string) {
    const read = <T>(p: string) => JSON.parse(readFileSync(join(root, 'v1', 'timezones', p), 'utf8')) as T;
    this.index = read<TimezonesIndex>('index.json');
    for (const s of this.index.zones) {
      const doc = read<TimezoneZone>(`zones/${s.id}.json`);
      const timeline = buildTimeline(
        doc.initial,
        doc.transitions.map((t) => ({ at_ms: Date.parse(t.at), state: t })),
      );
      this.zones.set(s.id, { doc, timeline });
      this.lookup.set(s.id.toLowerCase(), s.id);
    }
    for (const [alias, id] of Object.entries(this.index.aliases)) this.lookup.set(alias.toLowerCase(), id);
    this.ids = this.index.zones.map((z) => z.id);
  }

  /** The canonical id for an id or alias (case-insensitive), if known. */
  resolve(id: string): string | undefined {
    return this.lookup.get(id.toLowerCase());
  }

  /** The zone as of `ms`, with the instants between which that answer holds. */
  zoneAt(id: string, ms: number): { body: Timezone; from: number; until: number } {
    const { doc, timeline } = this.zones.get(id)!;
    const i = stateIndexAt(timeline, ms);
    const s = timeline.states[i];
    const next = doc.transitions[i] ?? null; // transitions[i] starts states[i + 1]
    const body: Timezone = {
      id: doc.id,
      name: doc.name,
      offset: formatOffset(s.offset_minutes),
      offset_minutes: s.offset_minutes,
      country: doc.country,
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

  /** JSON bytes of a list page at `ms`, cached until any of its zones changes. */
  pageText(params: PageParams, ms: number): Cached {
    const key = `${params.page}/${params.per_page}`;
    const hit = this.pageCache.get(key);
    if (hit && ms >= hit.from && ms < hit.until) return hit;
    const page = paginate(this.ids, params);
    let from = -Infinity;
    let until = Infinity;
    const data = page.data.map((id) => {
      const z = this.zoneAt(id, ms);
      from = Math.max(from, z.from);
      until = Math.min(until, z.until);
      return z.body;
    });
    const body: TimezoneList = { data, pagination: page.pagination };
    const cached = { text: utf8.encode(JSON.stringify(body)), from, until };
    if (this.pageCache.size > 1000) this.pageCache.clear(); // bounded: at most 100 x 418 keys are possible
    this.pageCache.set(key, cached);
    return cached;
  }
}
