/**
 * Issue 15: a misspelled parameter was ignored and the default answered
 * (`/v1/business-days/US?dat=2026-07-03` answered 200 for today, a wrong
 * answer that looks right). Every route now refuses a query parameter it
 * does not take with 400 `unknown_parameter`, naming it and the ones it takes.
 */
import { describe, expect, it } from 'vitest';
import { appAt, sharedKeys } from './helpers.js';

const app = appAt();
const KEY = { 'x-api-key': sharedKeys().keys.growth };
const POINT = ['latitude', 'longitude', 'timezone', 'date'];

/** Every route, as a request that answers 200, with the query parameters it takes (in the order its message lists them). */
const ROUTES: [url: string, accepted: string[]][] = [
  ['/v1/business-days/US', ['date', 'type']],
  ['/v1/business-days/US/add?days=1', ['start', 'days', 'type']],
  ['/v1/business-days/US/subtract?days=1', ['start', 'days', 'type']],
  ['/v1/business-days/US/count?start=2026-01-01&end=2026-01-31', ['start', 'end', 'type']],
  ['/v1/business-days/US/next', ['from', 'type']],
  ['/v1/business-days/US/holidays', ['year']],
  ['/v1/business-days/US/holidays.ics', ['from_year', 'to_year', 'type']],
  ['/v1/business-days', []],
  ['/v1/countries', ['page', 'per_page']],
  ['/v1/countries/JP', []],
  ['/v1/travel/JP', ['from', 'date']],
  ['/v1/travel/US-CA', ['from', 'date']],
  ['/v1/timezones', ['page', 'per_page', 'include', 'at']],
  ['/v1/timezones/America%2FNew_York', ['at']],
  ['/v1/timezones/America/New_York', ['at']],
  ['/v1/timezones/UTC', ['at']],
  ['/v1/timezones/America%2FNew_York/transitions', ['year']],
  ['/v1/timezones/lookup?latitude=40.71&longitude=-74.01', ['latitude', 'longitude', 'at']],
  ['/v1/astronomy/sun?latitude=59.91&longitude=10.75', POINT],
  ['/v1/astronomy/moon?latitude=59.91&longitude=10.75', POINT],
  ['/v1/astronomy/sun/coordinates?latitude=59.91&longitude=10.75', POINT],
  ['/v1/astronomy/moon/coordinates?latitude=59.91&longitude=10.75', POINT],
  ['/v1/astronomy/sun/NO', ['date']],
  ['/v1/astronomy/moon/US-CA', ['date']],
  ['/v1/openapi.json', []],
  ['/docs', []],
  ['/docs/redoc.standalone.js', ['v']],
  ['/docs/try', []],
  ['/docs/try/swagger-ui-bundle.js', ['v']],
  ['/docs/try/swagger-ui.css', ['v']],
  ['/docs/try/init.js', []],
  ['/healthz', []],
  ['/v1', []],
  ['/', []],
];

const withParam = (url: string, param: string) => `${url}${url.includes('?') ? '&' : '?'}${param}`;
const english = (names: string[]) => (names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

async function error(url: string) {
  const res = await app.request(url, { headers: KEY });
  const body = (await res.json()) as { error: { status: number; code: string; message: string; parameter?: string } };
  expect(body.error.status).toBe(res.status);
  return body.error;
}

describe('every route refuses a parameter it does not take', () => {
  for (const [url, accepted] of ROUTES) {
    it(`${url} (takes ${accepted.join(', ') || 'nothing'})`, async () => {
      const ok = await app.request(url, { headers: KEY });
      expect(ok.status, `${url}: ${(await ok.text()).slice(0, 200)}`).toBe(200);

      const bad = await error(withParam(url, 'dat=2026-07-03'));
      expect(bad.status).toBe(400);
      expect(bad.code).toBe('unknown_parameter');
      expect(bad.parameter).toBe('dat');
      const takes = accepted.length === 0 ? 'this endpoint takes no query parameters' : `this endpoint accepts ${english(accepted)}`;
      const guess = accepted.includes('date') ? ' (did you mean date?)' : '';
      expect(bad.message).toBe(`Unknown parameter "dat"${guess}: ${takes}.`);

      // Each parameter it takes is never refused as unknown (a bad value may still be refused as bad).
      for (const name of accepted) {
        const res = await app.request(withParam(url, `${name}=1`), { headers: KEY });
        if (res.status !== 200) expect((await res.json()).error.code, `${url} ${name}`).not.toBe('unknown_parameter');
      }
    });
  }
});

describe('the refusal', () => {
  it('answers the issue’s example instead of today’s date, and suggests the parameter meant', async () => {
    const e = await error('/v1/business-days/US?dat=2026-07-03');
    expect(e).toEqual({
      status: 400,
      code: 'unknown_parameter',
      message: 'Unknown parameter "dat" (did you mean date?): this endpoint accepts date and type.',
      parameter: 'dat',
    });
  });

  it('suggests across letter case, prefixes and small slips, and nothing for a stranger', async () => {
    expect((await error('/v1/business-days/US?DATE=2026-07-03')).message).toContain('(did you mean date?)');
    expect((await error('/v1/astronomy/sun?lat=59.91&longitude=10.75')).message).toContain('(did you mean latitude?)');
    expect((await error('/v1/countries?per-page=10')).message).toContain('(did you mean per_page?)');
    expect((await error('/v1/timezones?pgae=2')).message).toContain('(did you mean page?)');
    expect((await error('/v1/travel/JP?currency=EUR')).message).toBe('Unknown parameter "currency": this endpoint accepts from and date.');
    // A short name is not taken for another short one two slips away: "dat" on add is not "days".
    expect((await error('/v1/business-days/US/add?dat=2026-07-03&days=1')).message).toBe('Unknown parameter "dat": this endpoint accepts start, days and type.');
    expect((await error('/v1/travel/JP?form=US')).message).toContain('(did you mean from?)');
  });

  it('refuses what the path form does not take: a code stands for its place and zone', async () => {
    const e = await error('/v1/astronomy/sun/NO?latitude=10&date=2026-06-21');
    expect(e.code).toBe('unknown_parameter');
    expect(e.message).toBe('Unknown parameter "latitude": this endpoint accepts date.');
  });

  it('comes before any other check of the request', async () => {
    expect((await error('/v1/business-days/ZZ?dat=2026-07-03')).code).toBe('unknown_parameter');
    expect((await error('/v1/business-days/US/add?dat=2026-07-03')).code).toBe('unknown_parameter');
    expect((await error('/v1/countries/ZZZ?x=1')).code).toBe('unknown_parameter');
    expect((await error('/v1/timezones/Mars%2FOlympus?x=1')).code).toBe('unknown_parameter');
    expect((await error('/v1/travel/ZZ?x=1')).code).toBe('unknown_parameter');
    expect((await error('/v1/astronomy/moon/AQ?x=1')).code).toBe('unknown_parameter');
  });

  it('is the same for a parameter given twice, empty or without a value', async () => {
    expect((await error('/v1/countries?pages=1&pages=2')).parameter).toBe('pages');
    expect((await error('/v1/countries/JP?x')).parameter).toBe('x');
    expect((await error('/v1/countries/JP?x=')).parameter).toBe('x');
  });

  it('leaves a bare "?" and empty pairs alone: they name no parameter', async () => {
    for (const url of ['/v1/countries/JP?', '/v1/countries/JP?&', '/v1/timezones/UTC?&&', '/healthz?']) expect((await app.request(url, { headers: KEY })).status, url).toBe(200);
  });

  it('never echoes a key given as a parameter name, and cuts long names', async () => {
    const key = sharedKeys().keys.growth;
    const e = await error(`/v1/countries/JP?${key}=1`);
    expect(JSON.stringify(e)).not.toContain(key.slice(4));
    expect(e.parameter).toBe('rdk_[redacted]');
    expect(e.message).toBe('Unknown parameter "rdk_[redacted]": this endpoint takes no query parameters.');
    const long = await error(`/v1/countries/JP?${'x'.repeat(500)}=1`);
    expect(long.parameter).toBe('x'.repeat(40));
  });

  it('decodes names as it decodes values: an encoded known name is known', async () => {
    const res = await app.request('/v1/business-days/US?d%61te=2026-07-03', { headers: KEY });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { date: string }).date).toBe('2026-07-03');
  });
});
