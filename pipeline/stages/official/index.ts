/**
 * Stage: read every official calendar (curated CSVs, npm packages, raw open data) into one list of
 * rows and one list of complete location-years. See sources/official-calendars/SOURCE.md.
 */
import { join } from 'node:path';
import { loadChina } from './china.js';
import { loadCuratedCalendars } from './csv.js';
import { loadJapan } from './japan.js';
import { loadKorea } from './korea.js';
import { loadTaiwan } from './taiwan.js';
import { sortOfficial, type OfficialData } from './types.js';

export type { OfficialData, OfficialRow, OfficialYear } from './types.js';

export async function loadOfficial(sourcesDir: string, firstYear: number): Promise<OfficialData & { versions: Record<string, string> }> {
  const dir = join(sourcesDir, 'official-calendars');
  const curated = loadCuratedCalendars(dir);
  const china = loadChina(join(dir, 'CN'));
  const korea = await loadKorea(join(dir, 'KR'));
  const japan = loadJapan(firstYear);
  const taiwan = loadTaiwan(join(dir, 'TW', 'dgpa'));
  const parts = [curated, china, korea, japan, taiwan];
  const years = parts.flatMap((p) => p.years);
  const seen = new Set<string>();
  for (const y of years) {
    const key = `${y.location}/${y.year}`;
    if (seen.has(key)) throw new Error(`official calendars: ${key} is declared complete twice (curated and a package?)`);
    seen.add(key);
  }
  return {
    ...sortOfficial({ rows: parts.flatMap((p) => p.rows), years }),
    versions: { ...china.versions, ...korea.versions, ...japan.versions },
  };
}
