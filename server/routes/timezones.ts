/**
 * GET /v1/timezones (paginated, sorted by id), /v1/timezones/{identifier},
 * /v1/timezones/{identifier}/transitions and /v1/timezones/lookup.
 * The identifier is normally URL-encoded (America%2FNew_York); an unencoded
 * one (America/New_York) is accepted too, and aliases (UTC, US/Eastern)
 * answer with their zone. Offsets are those in force at the request instant,
 * or at `at` (an RFC 3339 instant inside the dataset's window).
 */
import { Hono, type Context } from 'hono';
import { parseInstant } from '../../lib/rfc3339.js';
import { BOUNDARIES } from '../../lib/geo-boundaries.js';
import { answer, answerJson } from '../answer-headers.js';
import type { Clock } from '../clock.js';
import { ComputedAnswers } from '../computed-answers.js';
import { badRequest, notFound } from '../errors.js';
import { zonesAt } from '../geo.js';
import { pageParams, queryOf, single, type Query } from '../query.js';
import type { TimezoneLookup } from '../../lib/schema-types.js';
import { parseCoordinate } from '../../lib/coordinates.js';
import type { Cached, ListScope, TimezoneStore } from '../timezone-store.js';

const YEAR_RE = /^\d{4}$/;

function coordinate(raw: string | undefined, name: 'latitude' | 'longitude', limit: number): number {
  if (raw === undefined) throw badRequest('missing_parameter', `${name} is required: the point to look up, in degrees (WGS 84)`, name);
  const value = parseCoordinate(raw, limit);
  if (value === undefined) throw badRequest(`invalid_${name}`, `${name} must be a number from -${limit} to ${limit}, got "${raw.slice(0, 40)}"`, name);
  return value;
}

/** `include`: absent for the zone.tab zones, `all` for every zone served. */
function listScope(q: Query): ListScope {
  const raw = single(q, 'include');
  if (raw === undefined) return 'zone.tab';
  if (raw === 'all') return 'all';
  throw badRequest('invalid_include', `include must be "all" (to list the zones outside zone.tab too: Etc/UTC, Etc/GMT±N, CET, ...), got "${raw.slice(0, 40)}"`, 'include');
}

/**
 * Answers for now are kept by the store until their zone's next transition; answers for a given
 * instant (`at`) and transition lists depend only on the request and the dataset, and are kept in
 * `answers` by the parsed request (canonical id, instant in ms, page), so spellings share them.
 */
export function timezonesRoutes(store: TimezoneStore, clock: Clock, answers = new ComputedAnswers()) {
  const app = new Hono();
  const { start, end } = store.window;
  const windowText = `${new Date(start).toISOString().slice(0, 4)} to ${new Date(end - 1).toISOString().slice(0, 4)}`;

  /** `at` as milliseconds, or undefined when not given. */
  const instant = (q: Query): number | undefined => {
    const raw = single(q, 'at');
    if (raw === undefined) return undefined;
    const ms = parseInstant(raw);
    if (ms === undefined) {
      throw badRequest('invalid_at', `at must be an RFC 3339 instant with a time zone offset, such as 2026-07-01T12:00:00Z or 2026-07-01T08:00:00-04:00 (encode + as %2B), got "${raw.slice(0, 40)}"`, 'at');
    }
    if (ms < start || ms >= end) throw badRequest('out_of_range', `at must lie in ${windowText} (UTC), the years our tzdata transitions cover, got "${raw.slice(0, 40)}"`, 'at');
    return ms;
  };

  const zoneId = (c: Context): string => {
    const raw = c.req.param('identifier') ?? '';
    const id = raw.length <= 64 ? store.resolve(raw) : undefined;
    if (!id) throw notFound('unknown_timezone', `Unknown time zone "${raw.slice(0, 64)}": use an IANA id such as America%2FNew_York or UTC; GET /v1/timezones?include=all lists them.`, 'identifier');
    return id;
  };

  // Answers for now hold until the next transition among their zones (their max-age counts down to it, at
  // most an hour); answers for a given instant change only with the dataset (the area's Cache-Control).
  const send = (c: Context, { text, until }: Cached) => answer(c, text, { holds: { until } });

  app.get('/', (c) => {
    const q = queryOf(c, 'page per_page include at');
    const params = pageParams(q);
    const scope = listScope(q);
    const at = instant(q);
    if (at !== undefined) return answer(c, answers.get(`list|${scope}|${params.page}|${params.per_page}|${at}`, () => JSON.stringify(store.page(params, scope, at, 'echo').body))!);
    return send(c, store.pageText(params, clock.now(c), scope));
  });

  app.get('/lookup', (c) => {
    const q = queryOf(c, 'latitude longitude at');
    const latitude = coordinate(single(q, 'latitude'), 'latitude', 90);
    const longitude = coordinate(single(q, 'longitude'), 'longitude', 180);
    const at = instant(q);
    const lookup = (ms: number, echo: 'echo' | undefined) => {
      const candidates = zonesAt(latitude, longitude).map((boundaryId) => {
        const id = store.resolve(boundaryId);
        // lib/geo-boundaries.ts's release is checked at build time to name only zones we serve.
        if (!id) throw new Error(`the boundary data names ${boundaryId}, which the dataset does not serve`);
        return { id, boundary_id: boundaryId };
      });
      const zone = store.zoneAt(candidates[0].id, ms, echo);
      const { source, release, license, attribution } = BOUNDARIES;
      const body: TimezoneLookup = { latitude, longitude, zone: zone.body, boundary_id: candidates[0].boundary_id, candidates, boundaries: { source, release, license, attribution } };
      return { body, until: zone.until };
    };
    if (at !== undefined) return answer(c, answers.get(`lookup|${latitude}|${longitude}|${at}`, () => JSON.stringify(lookup(at, 'echo').body))!);
    const { body, until } = lookup(clock.now(c), undefined);
    return answerJson(c, body, { holds: { until } });
  });

  app.get('/:identifier{.+}/transitions', (c) => {
    const q = queryOf(c, 'year');
    const id = zoneId(c);
    const raw = single(q, 'year');
    let year: number | null = null;
    if (raw !== undefined) {
      if (!YEAR_RE.test(raw)) throw badRequest('invalid_year', `year must be a four-digit year such as 2026, got "${raw.slice(0, 40)}"`, 'year');
      year = Number(raw);
      if (Date.UTC(year, 0, 1) < start || Date.UTC(year, 0, 1) >= end) throw badRequest('out_of_range', `year ${year} is outside ${windowText}, the years our tzdata transitions cover`, 'year');
    }
    return answer(c, answers.get(`transitions|${id}|${year}`, () => JSON.stringify(store.transitions(id, year)))!);
  });

  app.get('/:identifier{.+}', (c) => {
    // Parsing the query costs a tenth of this path's throughput: queryOf parses only when there is one.
    const q = queryOf(c, 'at');
    const id = zoneId(c);
    const at = instant(q);
    if (at !== undefined) return answer(c, answers.get(`zone|${id}|${at}`, () => JSON.stringify(store.zoneAt(id, at, 'echo').body))!);
    return send(c, store.zoneText(id, clock.now(c)));
  });

  return app;
}
