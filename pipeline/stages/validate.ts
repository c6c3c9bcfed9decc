/**
 * Stage: every file must validate against its JSON Schema before anything is
 * published. Fails closed: an unknown path or a single invalid file throws.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { COUNTRY_SCHEMA_ROUTES } from './emit-countries.js';
import { TRAVEL_SCHEMA_ROUTES } from './emit-travel.js';
import { ASTRONOMY_SCHEMA_ROUTES } from './emit-astronomy-places.js';

const SCHEMA_DIR = join(import.meta.dirname, '..', '..', 'schemas');
const BASE = 'https://refdata.dev/schemas/v1/';

/** Which schema each published path must satisfy. */
const ROUTES: [RegExp, string][] = [
  [/^manifest\.json$/, 'manifest.schema.json'],
  [/^attribution\.json$/, 'attribution.schema.json'],
  [/^business-days\/index\.json$/, 'business-days-locations.schema.json'],
  [/^business-days\/[A-Z0-9-]+\/index\.json$/, 'business-days-location.schema.json'],
  [/^business-days\/[A-Z0-9-]+\/\d{4}\.json$/, 'business-days-year.schema.json'],
  [/^timezones\/index\.json$/, 'timezones-index.schema.json'],
  [/^timezones\/zones\/[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*\.json$/, 'timezone-zone.schema.json'],
  [/^timezones\/pages\/[1-9]\d*\.json$/, 'timezone-summary-page.schema.json'],
  ...COUNTRY_SCHEMA_ROUTES,
  ...TRAVEL_SCHEMA_ROUTES,
  ...ASTRONOMY_SCHEMA_ROUTES,
];

export function createAjv() {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true });
  addFormats.default(ajv);
  for (const f of readdirSync(SCHEMA_DIR).filter((n) => n.endsWith('.schema.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMA_DIR, f), 'utf8')));
  }
  return ajv;
}

export function schemaFor(path: string): string | undefined {
  return ROUTES.find(([re]) => re.test(path))?.[1];
}

/** Throws listing every invalid file (up to 20) with the first errors of each. */
export function validateFiles(files: Iterable<[string, unknown]>, ajv = createAjv(), onFile: () => void = () => {}): number {
  const problems: string[] = [];
  let count = 0;
  for (const [path, doc] of files) {
    count++;
    onFile();
    const schema = schemaFor(path);
    if (!schema) {
      problems.push(`${path}: no schema is defined for this path`);
      continue;
    }
    const validate = ajv.getSchema(BASE + schema)!;
    if (!validate(doc)) problems.push(`${path}: ${ajv.errorsText(validate.errors?.slice(0, 3))}`);
    if (problems.length >= 20) break;
  }
  if (problems.length) throw new Error(`validation failed:\n  ${problems.join('\n  ')}`);
  return count;
}
