/**
 * Stage: every official calendar (the curated days and years of sources/holidays/<CC>/, and the npm
 * packages and raw files that carry official data) as one list of day rows and one list of complete
 * location-years. See sources/holidays/README.md.
 */
import { join } from 'node:path';
import { citedAct, type Curation } from '../holidays/curation.js';
import { loadChina } from './china.js';
import { loadJapan } from './japan.js';
import { loadKorea } from './korea.js';
import { loadTaiwan } from './taiwan.js';
import { sortOfficial, type OfficialData } from './types.js';

export type { OfficialData, DayRow, YearRow } from './types.js';

export async function loadOfficial(holidaysDir: string, curation: Curation, firstYear: number): Promise<OfficialData & { versions: Record<string, string> }> {
  const curated: OfficialData = { rows: curation.days, years: curation.years };
  const china = loadChina(join(holidaysDir, 'CN'), curation);
  const korea = await loadKorea(curation);
  const japan = loadJapan(firstYear);
  const taiwan = loadTaiwan(join(holidaysDir, 'TW', 'dgpa'));
  const parts = [curated, china, korea, japan, taiwan];
  const years = parts.flatMap((p) => p.years);
  const seen = new Set<string>();
  for (const y of years) {
    const key = `${y.location}/${y.year}`;
    if (seen.has(key)) throw new Error(`official calendars: ${key} is declared complete twice (${y.where})`);
    seen.add(key);
  }
  for (const r of parts.flatMap((p) => [...p.rows, ...p.years])) for (const id of r.citations) citedAct(curation.citations, id, r.where);
  return {
    ...sortOfficial({ rows: parts.flatMap((p) => p.rows), years }),
    versions: { ...china.versions, ...korea.versions, ...japan.versions },
  };
}
