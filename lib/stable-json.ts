/**
 * Deterministic JSON for published files: keys sorted, and every array of
 * objects written one record per line, so a data change reads as a small diff.
 */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

function write(value: unknown, indent: string): string {
  if (Array.isArray(value) && value.some((v) => v && typeof v === 'object')) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${indent}  ${JSON.stringify(v)}`).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${indent}  ${JSON.stringify(k)}: ${write(v, `${indent}  `)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

export function stableJson(value: unknown): string {
  return `${write(sortKeys(value), '')}\n`;
}
