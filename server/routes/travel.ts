/**
 * GET /v1/travel/{destination}?from=&date=: the travel facts of a country or
 * ISO 3166-2 region. Without `from` and `date` the answer is the static
 * file's bytes (travel/{CODE}.json); `from` adds power compatibility, `date`
 * the climate normals of that month.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { powerCompatibility } from '../../lib/plugs.js';
import { civilFromDays, parseDate } from '../../lib/plain-date.js';
import { stableJson } from '../../lib/stable-json.js';
import type { ClimateNormals, TravelIndex, TravelInfo } from '../../lib/schema-types.js';
import { answer, answerJson, utf8 } from '../answer-headers.js';
import { badRequest, notFound } from '../errors.js';
import { single } from '../query.js';

export const CODE_RE = /^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/;

export function travelRoutes(dataDir: string) {
  const dir = join(dataDir, 'v1', 'travel');
  const read = <T>(p: string) => JSON.parse(readFileSync(join(dir, p), 'utf8')) as T;
  const index = read<TravelIndex>('index.json');
  const docs = new Map(index.destinations.map((code) => [code, read<TravelInfo>(`${code}.json`)]));
  const climates = new Map<string, ClimateNormals>();
  for (const code of index.destinations) {
    if (code.length === 2 && docs.get(code)!.sources.climate) climates.set(code, read<ClimateNormals>(`climate/${code}.json`));
  }
  const noData = new Map(index.no_travel_data.map((n) => [n.code, n.missing]));
  const plain = new Map<string, Uint8Array<ArrayBuffer>>();

  /** The document answering for a code: its own, or its country's re-addressed to the region. */
  function resolve(raw: string, parameter: 'destination' | 'from'): TravelInfo {
    if (!CODE_RE.test(raw)) throw badRequest(`invalid_${parameter}`, `${parameter} must be an ISO 3166-1 alpha-2 or ISO 3166-2 code (JP, JP-13), got "${raw.slice(0, 40)}"`, parameter);
    const code = raw.toUpperCase();
    const own = docs.get(code);
    if (own) return own;
    const country = index.regions[code];
    if (country) {
      // The capital's climate station does not describe another region.
      const doc = docs.get(country)!;
      return { ...doc, destination: code, sources: { ...doc.sources, climate: null } };
    }
    const missing = noData.get(code);
    if (missing) throw notFound('no_travel_data', `No travel facts for ${code}: ${missing.join(', ')} unknown in every source we use.`, parameter);
    throw notFound(`unknown_${parameter}`, `Unknown ${parameter} "${raw.slice(0, 40)}": use an ISO 3166-1 alpha-2 or ISO 3166-2 code.`, parameter);
  }

  const app = new Hono();
  app.get('/:destination', (c) => {
    const q = c.req.queries();
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
    const body: TravelInfo = { ...doc };
    if (from !== undefined) {
      const origin = resolve(from, 'from');
      body.power_compatibility = { from: origin.destination, ...powerCompatibility(origin.power, doc.power) };
    }
    if (date !== undefined) {
      const day = parseDate(date);
      if (day === undefined) throw badRequest('invalid_date', `date must be a real calendar date in YYYY-MM-DD form, got "${date.slice(0, 40)}"`, 'date');
      // Only a country's own document has a station (its capital's); regions have none yet.
      const normals = doc.destination === doc.country ? climates.get(doc.country) : undefined;
      body.climate = normals ? { ...normals.months[civilFromDays(day)[1] - 1], station: normals.station } : null;
    }
    return answerJson(c, body);
  });
  return app;
}
