/**
 * Stage: the timezone files: one document per zone (with its transitions),
 * an index of every zone and alias, and static pages of 50 zone summaries.
 */
import { DEFAULT_PER_PAGE, paginate } from '../../lib/paginate.js';
import type { TimezonesIndex, TimezoneSummary, TimezoneZone } from '../../lib/schema-types.js';
import type { FileMap } from './emit-business-days.js';

export function emitTimezones(zones: TimezoneZone[]): FileMap {
  const files: FileMap = new Map();
  const summaries: TimezoneSummary[] = zones.map((z) => ({
    id: z.id,
    name: z.name,
    country: z.country,
    standard_offset: z.standard_offset,
    standard_offset_minutes: z.standard_offset_minutes,
    aliases: z.aliases,
  }));
  const aliases: Record<string, string> = {};
  for (const z of zones) for (const a of z.aliases) aliases[a] = z.id;
  const index: TimezonesIndex = { tzdata_version: zones[0].tzdata_version, zones: summaries, aliases };
  files.set('timezones/index.json', index);
  for (const z of zones) files.set(`timezones/zones/${z.id}.json`, z);
  const pages = Math.ceil(summaries.length / DEFAULT_PER_PAGE);
  for (let page = 1; page <= pages; page++) files.set(`timezones/pages/${page}.json`, paginate(summaries, { page, per_page: DEFAULT_PER_PAGE }));
  return files;
}
