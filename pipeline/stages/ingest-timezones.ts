/**
 * Stage: every IANA zone we serve, with its country (zone.tab zones), English
 * name, aliases and offset history across the dataset window, compiled from
 * the vendored tzdata release with zic. Served: the zone.tab zones, and every
 * other Zone of tzdata.zi but Factory (Etc/UTC, Etc/GMT, Etc/GMT-14..+12 and
 * the rule-named CET, EST5EDT, ...), which have no country.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { rawTimeZones } from '@vvo/tzdb';
import { formatOffset } from '../../lib/zone-timeline.js';
import { parseTzif, type LocalTimeType } from '../../lib/tzif.js';
import { zoneWindow } from '../../lib/zone-window.js';
import type { TimezoneZone, ZoneState } from '../../lib/schema-types.js';

export function findZic(): string {
  for (const p of ['/usr/sbin/zic', '/usr/bin/zic', '/sbin/zic']) if (existsSync(p)) return p;
  return 'zic';
}

export function tzdataVersion(sourcesDir: string): string {
  const first = readFileSync(join(sourcesDir, 'tzdata', 'tzdata.zi'), 'utf8').split('\n', 1)[0];
  const m = /^# version (\d{4}[a-z])$/.exec(first);
  if (!m) throw new Error(`tzdata.zi does not start with "# version NNNNx": ${first}`);
  return m[1];
}

/** An ISO 6709 angle of zone.tab (+DDMM, +DDMMSS, +DDDMM, +DDDMMSS) in decimal degrees. */
function iso6709(text: string, degreeDigits: number): number {
  const sign = text[0] === '-' ? -1 : 1;
  const d = Number(text.slice(1, 1 + degreeDigits));
  const m = Number(text.slice(1 + degreeDigits, 3 + degreeDigits));
  const sec = Number(text.slice(3 + degreeDigits) || 0);
  return sign * (d + m / 60 + sec / 3600);
}

/** zone.tab rows: id, country, comment, and the zone's principal location. */
export function readZoneTab(sourcesDir: string) {
  return readFileSync(join(sourcesDir, 'tzdata', 'zone.tab'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [country, coordinates, id, comment = ''] = l.split('\t');
      const m = /^([+-]\d{4,6})([+-]\d{5,7})$/.exec(coordinates);
      if (!m) throw new Error(`zone.tab: bad coordinates for ${id}`);
      return { id, country, comment, latitude: iso6709(m[1], 2), longitude: iso6709(m[2], 3) };
    });
}

/** tzdata links (`L TARGET NAME`) as name -> target, and the names of its zones (`Z NAME ...`). */
function readZi(sourcesDir: string): { links: Map<string, string>; zones: string[] } {
  const links = new Map<string, string>();
  const zones: string[] = [];
  for (const l of readFileSync(join(sourcesDir, 'tzdata', 'tzdata.zi'), 'utf8').split('\n')) {
    const m = /^L (\S+) (\S+)$/.exec(l);
    if (m) links.set(m[2], m[1]);
    const z = /^Z (\S+) /.exec(l);
    if (z) zones.push(z[1]);
  }
  return { links, zones };
}

/**
 * Factory (abbreviation "-00") is tzdata's marker for an installation whose
 * zone is unknown (see tzdata's `factory` file): no one keeps that time.
 */
const NOT_SERVED = new Set(['Factory']);

/**
 * English names of the Etc zones, which @vvo/tzdb does not name. They follow
 * CLDR's English data (https://github.com/unicode-org/cldr/blob/main/common/main/en.xml,
 * the source of what Intl.DateTimeFormat prints): Etc/UTC has its own name,
 * Etc/GMT belongs to the metazone GMT (cldr-core supplemental/metaZones.json),
 * and a zone without a name is written with gmtFormat "GMT{0}" and hourFormat
 * "+HH:mm;-HH:mm" from its offset. tzdata's POSIX-style ids have the sign
 * reversed: Etc/GMT+5 is five hours behind UTC, "GMT-05:00".
 */
function etcName(id: string, offsetMinutes: number): string | undefined {
  if (id === 'Etc/UTC') return 'Coordinated Universal Time';
  if (id === 'Etc/GMT') return 'Greenwich Mean Time';
  if (/^Etc\/GMT[+-]\d{1,2}$/.test(id)) return `GMT${formatOffset(offsetMinutes)}`;
  return undefined;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

function state(t: LocalTimeType): ZoneState {
  const minutes = Math.round(t.utoff / 60);
  return { offset: formatOffset(minutes), offset_minutes: minutes, abbreviation: t.abbreviation, is_dst: t.isdst };
}

export function ingestTimezones(sourcesDir: string, fromSeconds: number, toSeconds: number): TimezoneZone[] {
  const version = tzdataVersion(sourcesDir);
  const zoneTab = readZoneTab(sourcesDir);
  const { links, zones: ziZones } = readZi(sourcesDir);
  const tab = new Map(zoneTab.map((z) => [z.id, z]));
  const served = new Set([...tab.keys(), ...ziZones.filter((z) => !NOT_SERVED.has(z))]);
  const aliases = new Map<string, string[]>();
  for (const [name, target] of links) {
    // A zone.tab name that tzdata keeps as a link (Europe/Vatican) is served as a zone of its own.
    if (tab.has(name)) continue;
    if (!served.has(target)) throw new Error(`tzdata link ${name} -> ${target}: the target is no zone we serve`);
    aliases.set(target, [...(aliases.get(target) ?? []), name]);
  }
  const names = new Map<string, string>();
  for (const r of rawTimeZones) for (const g of r.group) names.set(g, r.alternativeName);

  const dir = mkdtempSync(join(tmpdir(), 'refdata-zic-'));
  try {
    execFileSync(findZic(), ['-b', 'fat', '-d', dir, join(sourcesDir, 'tzdata', 'tzdata.zi')], { stdio: ['ignore', 'ignore', 'pipe'] });
    return [...served]
      .map((id): TimezoneZone => {
        const w = zoneWindow(parseTzif(readFileSync(join(dir, id))), fromSeconds, toSeconds);
        const latest = [w.initial, ...w.transitions.map((t) => t.type)].filter((t) => !t.isdst).pop() ?? w.initial;
        const std = Math.round(latest.utoff / 60);
        const name = etcName(id, std) ?? names.get(id);
        if (!name) throw new Error(`no English name for ${id}`);
        const row = tab.get(id);
        return {
          id,
          name,
          ...(row ? { country: row.country } : {}),
          comment: row?.comment ?? '',
          aliases: (aliases.get(id) ?? []).sort(),
          tzdata_version: version,
          window: { start: iso(fromSeconds), end: iso(toSeconds) },
          standard_offset: formatOffset(std),
          standard_offset_minutes: std,
          initial: state(w.initial),
          transitions: w.transitions.map((t) => ({ at: iso(t.at), ...state(t.type) })),
        };
      })
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The zone ids a boundary data set names, checked against the zones we serve. */
export interface BoundaryCheck {
  /** Boundary zones that are tzdata links: answered as the zone they stand for. */
  aliases: Record<string, string>;
  /** zone.tab zones the boundary data has no polygon for (a lookup can never answer them). */
  zones_without_boundaries: string[];
}

/**
 * Every zone id of the boundary data must be a zone or alias we serve, or a
 * lookup would answer a zone we cannot describe: the build fails on any other.
 */
export function checkBoundaries(zones: TimezoneZone[], boundaryIds: string[]): BoundaryCheck {
  const ids = new Set(zones.map((z) => z.id));
  const aliasOf = new Map(zones.flatMap((z) => z.aliases.map((a): [string, string] => [a, z.id])));
  const unknown = boundaryIds.filter((id) => !ids.has(id) && !aliasOf.has(id));
  if (unknown.length) throw new Error(`the time zone boundaries name zones tzdata does not have: ${unknown.join(', ')}`);
  const named = new Set(boundaryIds.map((id) => aliasOf.get(id) ?? id));
  return {
    aliases: Object.fromEntries(boundaryIds.filter((id) => aliasOf.has(id)).sort().map((id) => [id, aliasOf.get(id)!])),
    zones_without_boundaries: zones.filter((z) => z.country && !named.has(z.id)).map((z) => z.id),
  };
}

/**
 * The zone ids of the boundary polygons geo-tz answers from (its comprehensive
 * product, the one server/geo.ts uses), read from the installed package; fails
 * when that is not the version whose boundary release lib/geo-boundaries.ts records.
 */
export function readBoundaryZones(expectedVersion: string): string[] {
  const root = join(dirname(createRequire(import.meta.url).resolve('geo-tz/all')), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  if (version !== expectedVersion) {
    throw new Error(`geo-tz ${version} is installed, lib/geo-boundaries.ts records the boundary release of ${expectedVersion}: look up the timezone-boundary-builder release it carries and update it`);
  }
  return (JSON.parse(readFileSync(join(root, 'data', 'timezones.geojson.index.json'), 'utf8')) as { timezones: string[] }).timezones;
}
