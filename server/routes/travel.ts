/**
 * GET /v1/travel/{destination}?from=&date=: the travel facts of a country or
 * ISO 3166-2 region. Without `from` and `date` the answer is the static
 * file's bytes (travel/{CODE}.json); `from` adds power compatibility, `date`
 * the climate normals of that month: a country's from the station at its
 * capital, a region's from the station nearest its seat (travel/climate/{CODE}.json).
 * sources.climate names the station exactly when climate is filled; with `date`
 * and no station, climate_note says why (travel/index.json climate_notes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { climateSourceText } from '../../lib/climate.js';
import { ISO_SUBDIVISION_INPUT_RE } from '../../lib/location-code.js';
import { powerCompatibility } from '../../lib/plugs.js';
import { civilFromDays, parseDate } from '../../lib/plain-date.js';
import { stableJson } from '../../lib/stable-json.js';
import type { ClimateNormals, TravelIndex, TravelInfo } from '../../lib/schema-types.js';
import { answer, utf8 } from '../answer-headers.js';
import { ComputedAnswers } from '../computed-answers.js';
import { badRequest, notFound } from '../errors.js';
import { queryOf, single } from '../query.js';

/** A destination or `from` code: a country or an ISO 3166-2 subdivision (server/openapi.ts documents it). */
export const CODE_RE = ISO_SUBDIVISION_INPUT_RE;

export function travelRoutes(dataDir: string, answers = new ComputedAnswers()) {
  const dir = join(dataDir, 'v1', 'travel');
  const read = <T>(p: string) => JSON.parse(readFileSync(join(dir, p), 'utf8')) as T;
  const index = read<TravelIndex>('index.json');
  const docs = new Map(index.destinations.map((code) => [code, read<TravelInfo>(`${code}.json`)]));
  // Read on first use: a few thousand small files, bounded by the index's list.
  const withClimate = new Set(index.climate);
  const climates = new Map<string, ClimateNormals>();
  const climateOf = (code: string): ClimateNormals | undefined => {
    if (!withClimate.has(code)) return undefined;
    let normals = climates.get(code);
    if (!normals) climates.set(code, (normals = read<ClimateNormals>(`climate/${code}.json`)));
    return normals;
  };
  const noData = new Map(index.no_travel_data.map((n) => [n.code, n.missing]));
  const plain = new Map<string, Uint8Array<ArrayBuffer>>();

  /** The document answering for a code: its own, or its country's re-addressed to the region. */
  function resolve(raw: string, parameter: 'destination' | 'from'): TravelInfo {
    if (!CODE_RE.test(raw)) throw badRequest(`invalid_${parameter}`, `${parameter} must be an ISO 3166-1 alpha-2 or ISO 3166-2 code (JP, JP-13), got "${raw.slice(0, 40)}"`, parameter);
    const code = raw.toUpperCase();
    const own = docs.get(code);
    if (own) return own;
    const country = index.regions[code];
    if (country) return { ...docs.get(country)!, destination: code };
    const missing = noData.get(code);
    if (missing) throw notFound('no_travel_data', `No travel facts for ${code}: ${missing.join(', ')} unknown in every source we use.`, parameter);
    throw notFound(`unknown_${parameter}`, `Unknown ${parameter} "${raw.slice(0, 40)}": use an ISO 3166-1 alpha-2 or ISO 3166-2 code.`, parameter);
  }

  const app = new Hono();
  app.get('/:destination', (c) => {
    const q = queryOf(c, 'from date');
    const from = single(q, 'from');
    const date = single(q, 'date');
    const doc = resolve(c.req.param('destination'), 'destination');
    if (from === undefined && date === undefined) {
      let bytes = plain.get(doc.destination);
      if (!bytes) {
        // A destination's own document: the static file's bytes; a region answered by its country: written the same way.
        bytes = docs.has(doc.destination) ? new Uint8Array(readFileSync(join(dir, `${doc.destination}.json`))) : utf8.encode(stableJson(doc));
        if (plain.size < 20_000) plain.set(doc.destination, bytes); // bounded by the ISO 3166-2 list
      }
      return answer(c, bytes);
    }
    const origin = from === undefined ? undefined : resolve(from, 'from');
    let month: number | undefined;
    if (date !== undefined) {
      const day = parseDate(date);
      if (day === undefined) throw badRequest('invalid_date', `date must be a real calendar date in YYYY-MM-DD form, got "${date.slice(0, 40)}"`, 'date');
      month = civilFromDays(day)[1];
    }
    // The answer depends on the date through its month only (climate normals are monthly).
    const bytes = answers.get(`travel|${doc.destination}|${origin?.destination ?? ''}|${month ?? ''}`, () => {
      const body: TravelInfo = { ...doc };
      if (origin !== undefined) body.power_compatibility = { from: origin.destination, ...powerCompatibility(origin.power, doc.power) };
      if (month !== undefined) {
        // A country's station is its capital's, a region's the one nearest its seat: never the country's for a region.
        const normals = climateOf(doc.destination);
        if (normals) {
          body.climate = { ...normals.months[month - 1], station: normals.station };
          body.sources = { ...doc.sources, climate: climateSourceText(normals.station) };
        } else {
          body.climate = null;
          body.climate_note = index.climate_notes[doc.destination] ?? { reason: 'no_seat', message: `No climate station is known for ${doc.destination}.` };
        }
      }
      return JSON.stringify(body);
    })!;
    return answer(c, bytes);
  });
  return app;
}
