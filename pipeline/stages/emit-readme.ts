/**
 * Stage: the dataset's own README.md (how to host the files, and which API
 * requests each file answers), from pipeline/dataset-readme.md with the
 * build's counts filled in. A placeholder left unfilled fails the build.
 *
 * Figures that change with the data (file counts and sizes, zone and alias
 * counts, travel coverage) are written here, computed from the build's own
 * files, rather than typed into the project's docs, where they drifted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TravelIndex } from '../../lib/schema-types.js';

const TEMPLATE = join(import.meta.dirname, '..', 'dataset-readme.md');

export function emitReadme(values: Record<string, string | number>): string {
  const text = readFileSync(TEMPLATE, 'utf8').replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    if (!(key in values)) throw new Error(`dataset README: no value for ${whole}`);
    return String(values[key]);
  });
  return text;
}

const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1);

/**
 * How many files of each family the dataset has and their size, from every file but this README and
 * manifest.json (which are written after it; `files` counts them too).
 */
export function fileFigures(written: Map<string, string | Uint8Array>): Record<string, string | number> {
  const family = (path: string) => (path.startsWith('bulk/') ? 'bulk' : path.endsWith('.ics') ? 'ics' : 'json');
  const sums = { json: { files: 0, bytes: 0 }, ics: { files: 0, bytes: 0 }, bulk: { files: 0, bytes: 0 } };
  for (const [path, data] of written) {
    const s = sums[family(path)];
    s.files += 1;
    s.bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  }
  return {
    files: written.size + 2,
    data_mb: megabytes(sums.json.bytes + sums.ics.bytes + sums.bulk.bytes),
    json_files: sums.json.files, json_mb: megabytes(sums.json.bytes),
    ics_files: sums.ics.files, ics_mb: megabytes(sums.ics.bytes),
    bulk_files: sums.bulk.files, bulk_mb: megabytes(sums.bulk.bytes),
  };
}

/** The travel coverage report of travel/index.json, as the README's sentences state it. */
export function travelFigures(coverage: TravelIndex['coverage']): Record<string, number> {
  const total = (field: string) => Object.values(coverage.fields[field] ?? {}).reduce((n, k) => n + k, 0);
  const power = coverage.fields.power ?? {};
  const emergency = coverage.fields.emergency ?? {};
  return {
    travel_countries: coverage.countries,
    travel_power: total('power'), power_fluids: power['fluids-power'] ?? 0, power_override: power.override ?? 0, power_inherited: power.inherited ?? 0,
    travel_emergency: total('emergency'), emergency_ecc: emergency['android-ecc'] ?? 0, emergency_override: emergency.override ?? 0,
    travel_phone_code: total('phone_code'), travel_driving_side: total('driving_side'), travel_climate: total('climate'),
    subdivisions_with_seat: coverage.seats.with_seat,
    climate_regions: coverage.regional_climate.regions, climate_regions_with_seat: coverage.regional_climate.with_seat,
    climate_regions_with_station: coverage.regional_climate.with_station, climate_km: coverage.regional_climate.max_distance_km,
  };
}
