/**
 * Stage: the timezone files: one document per zone (with its transitions),
 * an index of every zone and alias, and static pages of 50 zone summaries.
 * The index's `zones`, `aliases` and the pages hold the zone.tab zones (the
 * list's default); the zones outside zone.tab (no country) are in
 * `other_zones`, each with its own aliases and the path of its document.
 */
import { DEFAULT_PER_PAGE, paginate } from '../../lib/paginate.js';
import { zoneDocumentPath } from '../../lib/zone-file.js';
import type { OtherZoneSummary, TimezonesIndex, TimezoneSummary, TimezoneZone } from '../../lib/schema-types.js';
import type { FileMap } from './emit-business-days.js';

export function emitTimezones(zones: TimezoneZone[]): FileMap {
  const files: FileMap = new Map();
  const summaries: TimezoneSummary[] = [];
  const others: OtherZoneSummary[] = [];
  const aliases: Record<string, string> = {};
  for (const z of zones) {
    const { id, name, standard_offset, standard_offset_minutes } = z;
    if (z.country) {
      summaries.push({ id, name, country: z.country, standard_offset, standard_offset_minutes, aliases: z.aliases });
      for (const a of z.aliases) aliases[a] = z.id;
    } else {
      others.push({ id, name, standard_offset, standard_offset_minutes, aliases: z.aliases, file: zoneDocumentPath(id) });
    }
  }
  const index: TimezonesIndex = { tzdata_version: zones[0].tzdata_version, zones: summaries, aliases, other_zones: others };
  files.set('timezones/index.json', index);
  for (const z of zones) files.set(zoneDocumentPath(z.id), z);
  const pages = Math.ceil(summaries.length / DEFAULT_PER_PAGE);
  for (let page = 1; page <= pages; page++) files.set(`timezones/pages/${page}.json`, paginate(summaries, { page, per_page: DEFAULT_PER_PAGE }));
  return files;
}
