/**
 * Stage: every canonical IANA zone (zone.tab) with its country, English name,
 * aliases and offset history across the dataset window, compiled from the
 * vendored tzdata release with zic.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** tzdata links (`L TARGET NAME`) as name -> target. */
function readLinks(sourcesDir: string): Map<string, string> {
  const links = new Map<string, string>();
  for (const l of readFileSync(join(sourcesDir, 'tzdata', 'tzdata.zi'), 'utf8').split('\n')) {
    const m = /^L (\S+) (\S+)$/.exec(l);
    if (m) links.set(m[2], m[1]);
  }
  return links;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

function state(t: LocalTimeType): ZoneState {
  const minutes = Math.round(t.utoff / 60);
  return { offset: formatOffset(minutes), offset_minutes: minutes, abbreviation: t.abbreviation, is_dst: t.isdst };
}

export function ingestTimezones(sourcesDir: string, fromSeconds: number, toSeconds: number): TimezoneZone[] {
  const version = tzdataVersion(sourcesDir);
  const zones = readZoneTab(sourcesDir);
  const canonical = new Set(zones.map((z) => z.id));
  const aliases = new Map<string, string[]>();
  for (const [name, target] of readLinks(sourcesDir)) {
    if (canonical.has(name) || !canonical.has(target)) continue;
    aliases.set(target, [...(aliases.get(target) ?? []), name]);
  }
  const names = new Map<string, string>();
  for (const r of rawTimeZones) for (const g of r.group) names.set(g, r.alternativeName);

  const dir = mkdtempSync(join(tmpdir(), 'refdata-zic-'));
  try {
    execFileSync(findZic(), ['-b', 'fat', '-d', dir, join(sourcesDir, 'tzdata', 'tzdata.zi')], { stdio: ['ignore', 'ignore', 'pipe'] });
    return zones
      .map(({ id, country, comment }) => {
        const w = zoneWindow(parseTzif(readFileSync(join(dir, id))), fromSeconds, toSeconds);
        const latest = [w.initial, ...w.transitions.map((t) => t.type)].filter((t) => !t.isdst).pop() ?? w.initial;
        const std = Math.round(latest.utoff / 60);
        const name = names.get(id);
        if (!name) throw new Error(`no English name for ${id}`);
        return {
          id,
          name,
          country,
          comment,
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
