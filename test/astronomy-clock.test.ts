/**
 * One clock for every area: astronomy writes its times with
 * the offsets /v1/timezones answers, from the dataset's tzdata, never the
 * runtime's. For every zone the dataset serves, at instants from 1900 to 2100,
 * the offset in an astronomy answer equals `GET /v1/timezones/{id}?at=` at that
 * instant. Alberta's move to year-round -06:00 (tzdata 2026f) is the case that
 * found the second clock: Node's own tz data still printed -07:00 for 2027.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_DATE, LAST_DATE } from '../lib/astronomy.js';
import type { TimezonesIndex } from '../lib/schema-types.js';
import { appAt, getJson, sharedTimezones } from './helpers.js';

const app = appAt(new Date('2026-11-21T12:00:00Z'));
const index = sharedTimezones().index as TimezonesIndex;
const { window } = sharedTimezones();
const ZONES = [...index.zones, ...(index.other_zones ?? [])].map((z) => z.id);
/** Local days across the window: before standard time, wartime, the 1970s, now, Alberta 2027, the far end. */
const DATES = [FIRST_DATE, '1916-07-01', '1942-12-15', '1975-01-15', '2026-07-15', '2027-01-15', '2038-01-19', '2071-06-30', LAST_DATE];
/** The offset an ISO 8601 time ends with. */
const offsetOf = (iso: string) => iso.slice(19);

describe('astronomy tells the time by the dataset tzdata', () => {
  it("the zones' window holds every local day astronomy answers for", () => {
    const { start, end } = window;
    // The window is UTC 1900-01-01 to 2101-01-01; a local day at UTC+14 starts up to 14 hours before it, and one at
    // UTC-12 ends 12 hours after it: there the state at the edge holds (docs/api.md, "Astronomy": Indian/Cocos's and
    // Europe/Stockholm's changes fell in the 14 hours before 1900 UTC; no zone changes in the first hours of 2101).
    expect(start).toBeLessThanOrEqual(Date.parse(`${FIRST_DATE}T00:00:00Z`));
    expect(end).toBeGreaterThanOrEqual(Date.parse(`${LAST_DATE}T00:00:00Z`) + 86_400_000);
  });

  it(`every zone (${ZONES.length}), ${DATES.length} days each: the offset of solar noon and of next_new_moon is /v1/timezones' at that instant`, async () => {
    const offenders: string[] = [];
    let compared = 0;
    for (const id of ZONES) {
      for (const date of DATES) {
        const enc = encodeURIComponent(id);
        const sun = await getJson(app, `/v1/astronomy/sun?latitude=0&longitude=0&timezone=${enc}&date=${date}`);
        const moon = await getJson(app, `/v1/astronomy/moon?latitude=0&longitude=0&timezone=${enc}&date=${date}`);
        if (sun.status !== 200 || moon.status !== 200) {
          offenders.push(`${id} ${date}: astronomy ${sun.status}/${moon.status} ${JSON.stringify(sun.body.error ?? moon.body.error)}`);
          continue;
        }
        for (const time of [sun.body.solar_noon as string, moon.body.next_new_moon as string]) {
          const instant = new Date(Date.parse(time)).toISOString().replace('.000Z', 'Z');
          // Outside the window (noon at Greenwich on 1899-12-31 is in Wallis's 1900-01-01; a new moon after 2100) no zone answers.
          if (Date.parse(instant) < window.start || Date.parse(instant) >= window.end) continue;
          const tz = await getJson(app, `/v1/timezones/${enc}?at=${instant}`);
          compared++;
          if (tz.status !== 200 || tz.body.offset !== offsetOf(time)) offenders.push(`${id} ${time}: /v1/timezones says ${tz.status} ${tz.body.offset}`);
        }
      }
    }
    expect(offenders, offenders.slice(0, 20).join('\n')).toEqual([]);
    // All but the instants outside the window: the east's 1900-01-01 noons at Greenwich, new moons after 2100.
    expect(compared).toBeGreaterThan(ZONES.length * (DATES.length - 1) * 2);
  });

  it('Alberta 2027: Calgary (CA-AB) and America/Edmonton agree on -06:00 (tzdata 2026f: Alberta stays on CST from 2026-11-01)', async () => {
    const sun = await getJson(app, '/v1/astronomy/sun/CA-AB?date=2027-01-15');
    expect(sun.status).toBe(200);
    expect(sun.body.timezone).toBe('America/Edmonton');
    const instant = new Date(Date.parse(sun.body.sunrise)).toISOString().replace('.000Z', 'Z');
    const tz = await getJson(app, `/v1/timezones/America%2FEdmonton?at=${instant}`);
    expect([offsetOf(sun.body.sunrise), tz.body.offset]).toEqual(['-06:00', '-06:00']);
    // Before the change: summer 2026 was still MDT.
    expect(offsetOf((await getJson(app, '/v1/astronomy/sun/CA-AB?date=2026-07-01')).body.sunrise)).toBe('-06:00');
    expect(offsetOf((await getJson(app, '/v1/astronomy/sun/CA-AB?date=2026-01-15')).body.sunrise)).toBe('-07:00');
  });

  it('takes only the zones /v1/timezones serves: a name tzdata dropped is refused by both', async () => {
    // US/Pacific-New was removed in tzdata 2020b (its NEWS: "US/Pacific-New ... has been removed").
    const astro = await getJson(app, '/v1/astronomy/sun?latitude=34&longitude=-118&timezone=US%2FPacific-New&date=2026-06-21');
    expect([astro.status, astro.body.error.code]).toEqual([400, 'invalid_timezone']);
    expect((await getJson(app, '/v1/timezones/US%2FPacific-New')).status).toBe(404);
  });

  it("echoes an alias in tzdata's spelling and computes with its zone", async () => {
    const alias = await getJson(app, '/v1/astronomy/sun?latitude=22.57&longitude=88.36&timezone=asia%2Fcalcutta&date=2026-06-21');
    const zone = await getJson(app, '/v1/astronomy/sun?latitude=22.57&longitude=88.36&timezone=Asia%2FKolkata&date=2026-06-21');
    expect(alias.body.timezone).toBe('Asia/Calcutta');
    expect(alias.body.sunrise).toBe(zone.body.sunrise);
  });
});
