/**
 * Comparing plain JSON values: equality, field-level changes, renamed keys.
 */
import type { AliasChanges, FieldChange } from './types.js';

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const bo = b as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k) => k in bo && deepEqual((a as Record<string, unknown>)[k], bo[k]));
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Leaf-level differences of two JSON values; objects are walked, arrays
 * compared whole (a plug list is one fact). `skip` drops top-level fields.
 */
export function fieldChanges(a: unknown, b: unknown, skip: readonly string[] = [], prefix = ''): FieldChange[] {
  if (!isPlainObject(a) || !isPlainObject(b)) return deepEqual(a, b) ? [] : [{ field: prefix, old: a, new: b }];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !skip.includes(k)).sort();
  return keys.flatMap((k) => fieldChanges(a[k], b[k], [], prefix ? `${prefix}.${k}` : k));
}

export const pick = (o: object, keys: readonly string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));

export const byKey = <T>(key: (t: T) => string) => (x: T, y: T) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0);

export function diffMaps(a: Record<string, string>, b: Record<string, string>): AliasChanges {
  const out: AliasChanges = { added: [], removed: [], retargeted: [] };
  for (const [alias, target] of Object.entries(a)) {
    if (!(alias in b)) out.removed.push({ alias, target });
    else if (b[alias] !== target) out.retargeted.push({ alias, old: target, new: b[alias] });
  }
  for (const [alias, target] of Object.entries(b)) if (!(alias in a)) out.added.push({ alias, target });
  out.added.sort(byKey((x) => x.alias));
  out.removed.sort(byKey((x) => x.alias));
  out.retargeted.sort(byKey((x) => x.alias));
  return out;
}
