/**
 * Stage: the dataset's own README.md (how to host the files, and which API
 * requests each file answers), from pipeline/dataset-readme.md with the
 * build's counts filled in. A placeholder left unfilled fails the build.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const TEMPLATE = join(import.meta.dirname, '..', 'dataset-readme.md');

export function emitReadme(values: Record<string, string | number>): string {
  const text = readFileSync(TEMPLATE, 'utf8').replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    if (!(key in values)) throw new Error(`dataset README: no value for ${whole}`);
    return String(values[key]);
  });
  return text;
}
