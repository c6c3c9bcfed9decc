/**
 * `npx tsx bench/geo.ts [points]`: the zone lookup in the library
 * (server/geo.ts over geo-tz), per point, cold and warm. The goal is under
 * 0.1 ms per point.
 *
 * Points: uniform on the sphere (seeded, so every run draws the same ones),
 * kept when the boundary data puts them on land or in territorial waters,
 * i.e. not in a nautical Etc/GMT±N zone. They are drawn in this process and
 * measured in a fresh child process, so that "cold" means a process that has
 * loaded nothing but the index: geo-tz reads and decodes each quadtree
 * leaf's polygons from its data file the first time a point falls in it.
 * Cold: the first lookup of every point in that process; warm: the same
 * points again.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Microseconds of each lookup, in order. */
function time(points: [number, number][], find: (lat: number, lon: number) => unknown): number[] {
  return points.map(([lat, lon]) => {
    const t0 = process.hrtime.bigint();
    find(lat, lon);
    return Number(process.hrtime.bigint() - t0) / 1000;
  });
}

async function measure(file: string) {
  const points = JSON.parse(readFileSync(file, 'utf8')) as [number, number][];
  const t0 = performance.now();
  const { zonesAt } = await import('../server/geo.js');
  const loadMs = performance.now() - t0;
  const cold = time(points, zonesAt);
  const warm = time(points, zonesAt);
  const line = (name: string, xs: number[]) => `| ${name} | ${median(xs).toFixed(1)} | ${mean(xs).toFixed(1)} | ${quantile(xs, 0.99).toFixed(1)} | ${Math.max(...xs).toFixed(0)} |`;
  console.log([
    `Zone lookup (server/geo.ts, geo-tz comprehensive product), ${points.length} random land points, node ${process.version}:`,
    '',
    '| pass | median µs | mean µs | p99 µs | max µs |',
    '|---|---:|---:|---:|---:|',
    line('cold (fresh process)', cold),
    line('warm (same points again)', warm),
    '',
    `Loading the module (geo-tz's index): ${loadMs.toFixed(0)} ms; the very first lookup: ${cold[0].toFixed(0)} µs; RSS after both passes: ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB.`,
  ].join('\n'));
}

async function main() {
  if (process.argv[2] === '--measure') return measure(process.argv[3]);
  const n = Number(process.argv[2] ?? 10_000);
  const { zoneAt } = await import('../server/geo.js');
  let seed = 20261121;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const points: [number, number][] = [];
  while (points.length < n) {
    const lat = (Math.asin(2 * random() - 1) * 180) / Math.PI;
    const lon = random() * 360 - 180;
    if (!zoneAt(lat, lon).startsWith('Etc/')) points.push([Number(lat.toFixed(5)), Number(lon.toFixed(5))]);
  }
  const dir = mkdtempSync(join(tmpdir(), 'refdata-bench-geo-'));
  try {
    const file = join(dir, 'points.json');
    writeFileSync(file, JSON.stringify(points));
    const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--measure', file], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`the measuring process exited with ${child.status}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
