/** Response validators compiled from schemas/, for asserting every answer's shape. */
import { createAjv } from '../pipeline/stages/validate.js';

const ajv = createAjv();
const BASE = 'https://refdata.dev/schemas/v1/';

export function assertMatchesSchema(schemaFile: string, body: unknown): void {
  const validate = ajv.getSchema(BASE + schemaFile);
  if (!validate) throw new Error(`no schema ${schemaFile}`);
  if (!validate(body)) throw new Error(`${schemaFile}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
}
