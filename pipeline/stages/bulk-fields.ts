/**
 * The bulk tables' columns, read from schemas/. A column that mirrors a property of the JSON files names the
 * schema and the path to that property, and takes from there its Table Schema type, description, enum, pattern
 * and whether it may be empty: the tables cannot drift from the JSON Schemas. Written beside a table is only what
 * the schemas cannot say: the table's own columns (a position, a map key, a derived value), a description where
 * the schema has none of its own, and `required` where flattening a document changes it (an outer join).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A column's Table Schema type (https://datapackage.org/standard/table-schema/#field-types). */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'list';

export interface BulkField {
  name: string;
  type: FieldType;
  description: string;
  required?: boolean;
  enum?: readonly (string | number)[];
  pattern?: string;
  /** For lists: the values each item may take. */
  itemEnum?: readonly string[];
  /** For lists: the pattern each item must match. */
  itemPattern?: string;
}

/** What a table may add to a mirrored column. */
export interface ColumnExtra {
  /** Only where the schema's property has no description of its own (a shared definition's is too general). */
  description?: string;
  /** Only where it differs from the schema's (the table makes an optional value always present, or the reverse). */
  required?: boolean;
}

/** The subset of JSON Schema that schemas/ uses for values a column can hold. */
interface Schema {
  $id?: string;
  $ref?: string;
  $defs?: Record<string, Schema>;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  minLength?: number;
  minItems?: number;
}

/** A schema node and the $id its relative references resolve against. */
interface Node {
  schema: Schema;
  base: string;
}

const SCHEMA_DIR = join(import.meta.dirname, '..', '..', 'schemas');
/** defs.schema.json's Instant is a UTC timestamp by its pattern (it has no `format`): a Table Schema datetime. */
const DATETIME_DEFS = ['defs.schema.json#/$defs/Instant'];

let loaded: { byId: Map<string, Schema>; idOfFile: Map<string, string> } | undefined;
function schemas() {
  if (!loaded) {
    const byId = new Map<string, Schema>();
    const idOfFile = new Map<string, string>();
    for (const file of readdirSync(SCHEMA_DIR).filter((n) => n.endsWith('.schema.json'))) {
      const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, file), 'utf8')) as Schema;
      byId.set(schema.$id!, schema);
      idOfFile.set(file, schema.$id!);
    }
    loaded = { byId, idOfFile };
  }
  return loaded;
}

/** The node a `$ref` points at. */
function deref(ref: string, base: string): Node & { href: string } {
  const url = new URL(ref, base);
  const id = url.href.slice(0, url.href.length - url.hash.length);
  let schema = schemas().byId.get(id);
  if (!schema) throw new Error(`bulk columns: ${ref} (from ${base}) is not a schema of schemas/`);
  for (const token of decodeURIComponent(url.hash.slice(1)).split('/').slice(1)) {
    schema = (schema as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')] as Schema | undefined;
    if (!schema) throw new Error(`bulk columns: ${ref} (from ${base}) points at nothing`);
  }
  return { schema, base: id, href: url.href };
}

/**
 * The value a node stands for: `$ref`s followed and a `null` alternative taken off (oneOf/anyOf [X, null],
 * type [X, "null"]), with whether null was allowed, the description met first behind a `$ref`, and the
 * references followed.
 */
function settle(start: Node): { node: Node; nullable: boolean; inherited?: string; refs: string[] } {
  let node = start;
  let nullable = false;
  let inherited: string | undefined;
  const refs: string[] = [];
  for (;;) {
    const s = node.schema;
    if (s.$ref) {
      const target = deref(s.$ref, node.base);
      refs.push(target.href);
      node = target;
      inherited ??= target.schema.description;
      continue;
    }
    const alternatives = s.oneOf ?? s.anyOf;
    if (alternatives) {
      const rest = alternatives.filter((a) => a.type !== 'null');
      if (rest.length !== 1) throw new Error(`bulk columns: a column holds one kind of value, not ${JSON.stringify(alternatives)}`);
      nullable ||= rest.length < alternatives.length;
      node = { schema: rest[0], base: node.base };
      continue;
    }
    if (Array.isArray(s.type)) {
      const types = s.type.filter((t) => t !== 'null');
      if (types.length !== 1) throw new Error(`bulk columns: a column holds one type, not ${s.type.join(', ')}`);
      nullable ||= types.length < s.type.length;
      node = { schema: { ...s, type: types[0] }, base: node.base };
      continue;
    }
    return { node, nullable, inherited, refs };
  }
}

interface Step {
  kind: 'property' | 'def' | 'items' | 'values';
  key: string;
}

/**
 * The property at `path` in the documents of `file`: `a.b` goes into properties, `a[]` into an array's items,
 * `a{}` into an object's values, and a leading `$defs.Name` starts at a definition. Also tells whether every
 * document has a value there (no step on the way is optional or nullable).
 */
function locate(file: string, path: string): { node: Node; always: boolean } {
  const id = schemas().idOfFile.get(file);
  if (!id) throw new Error(`bulk columns: schemas/${file} does not exist`);
  let node: Node = { schema: schemas().byId.get(id)!, base: id };
  let always = true;
  const fromDef = path.startsWith('$defs.');
  const steps = (fromDef ? path.slice('$defs.'.length) : path).split('.').flatMap((part, i) => {
    const m = /^([^[{]+)((?:\[\]|\{\})*)$/.exec(part);
    if (!m) throw new Error(`bulk columns: bad path ${path}`);
    const first: Step = { kind: fromDef && i === 0 ? 'def' : 'property', key: m[1] };
    return [first, ...(m[2].match(/\[\]|\{\}/g) ?? []).map((x): Step => ({ kind: x === '[]' ? 'items' : 'values', key: x }))];
  });
  for (const step of steps) {
    const { node: here, nullable } = settle(node);
    if (nullable) always = false;
    const s = here.schema;
    const next =
      step.kind === 'property' ? s.properties?.[step.key]
      : step.kind === 'def' ? s.$defs?.[step.key]
      : step.kind === 'items' ? s.items
      : typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
    if (!next) throw new Error(`bulk columns: ${file} has nothing at ${path} (${step.kind} ${step.key})`);
    if (step.kind === 'property' && !s.required?.includes(step.key)) always = false;
    node = { schema: next, base: here.base };
  }
  return { node, always };
}

const typeOfValue = (v: unknown) => (Number.isInteger(v) ? 'integer' : typeof v);

/** The Table Schema type of a settled scalar node. */
function scalarType(s: Schema, refs: string[], where: string): Exclude<FieldType, 'list'> {
  const type = s.type ?? (s.const !== undefined ? typeOfValue(s.const) : s.enum ? typeOfValue(s.enum[0]) : undefined);
  if (type === 'string') {
    if (s.format === 'date') return 'date';
    if (s.format === 'date-time' || refs.some((r) => DATETIME_DEFS.some((d) => r.endsWith(`/${d}`)))) return 'datetime';
    return 'string';
  }
  if (type === 'integer' || type === 'number' || type === 'boolean') return type;
  throw new Error(`bulk columns: ${where} is a ${type ?? 'value of no type'}, which a CSV cell cannot hold`);
}

/** Whether no valid value of the node is written as an empty cell ('' and [] are written as nothing). */
function neverEmpty(s: Schema, type: FieldType): boolean {
  if (type === 'list') return (s.minItems ?? 0) >= 1;
  if (type !== 'string') return true;
  if (s.const !== undefined) return s.const !== '';
  if (s.enum) return !s.enum.includes('');
  return (s.minLength ?? 0) >= 1 || (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(''));
}

/** A column mirroring `path` in the documents of schemas/`file` (see locate), named `name` in its table. */
export function mirrorField(file: string, name: string, path: string, extra: ColumnExtra = {}): BulkField {
  const where = `${file} ${path}`;
  const { node, always } = locate(file, path);
  const own = node.schema.description;
  const { node: value, nullable, inherited, refs } = settle(node);
  const s = value.schema;
  const field: BulkField = { name, type: 'string', description: '' };
  if (s.type === 'array') {
    if (!s.items) throw new Error(`bulk columns: ${where} is an array without items`);
    const { node: item, refs: itemRefs } = settle({ schema: s.items, base: value.base });
    if (scalarType(item.schema, itemRefs, `${where}[]`) !== 'string') throw new Error(`bulk columns: ${where} is a list of non-strings`);
    field.type = 'list';
    if (item.schema.enum) field.itemEnum = item.schema.enum as string[];
    if (item.schema.pattern) field.itemPattern = item.schema.pattern;
  } else {
    field.type = scalarType(s, refs, where);
    const values = s.const !== undefined ? [s.const] : s.enum;
    if (values) field.enum = values as (string | number)[];
    // A date's or datetime's pattern is its type's; Table Schema patterns apply to strings only.
    if (s.pattern && field.type === 'string') field.pattern = s.pattern;
  }
  if (extra.description !== undefined && own !== undefined) throw new Error(`bulk columns: ${where} is described in the schema; drop the table's description of ${name}`);
  field.description = own ?? extra.description ?? inherited ?? '';
  if (!field.description) throw new Error(`bulk columns: ${where} has no description: give one in the schema (or, for this table only, beside ${name})`);
  const required = always && !nullable && neverEmpty(s, field.type);
  if (extra.required === required) throw new Error(`bulk columns: ${name} (${where}) is ${required ? '' : 'not '}required by the schema already; drop the table's required`);
  if (extra.required ?? required) field.required = true;
  return field;
}

/** `mirrorField` bound to one schema file: `col(name, path, extra)`. */
export const columnsOf = (file: string) => (name: string, path: string, extra?: ColumnExtra) => mirrorField(file, name, path, extra);

/** A column with no property behind it (a position, a map key, a derived value): everything is written here. */
export function ownField(name: string, type: FieldType, description: string, required = false): BulkField {
  return { name, type, description, ...(required ? { required } : {}) };
}
