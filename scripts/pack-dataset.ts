/**
 * Packs dist-data/v1 as the npm package @refdata/dataset:
 *   npm run pack:dataset -- [--data dist-data] [--out build]
 * Verifies every data file against the manifest's sha256, stages the package
 * in <out>/dataset-package/ (deleted first, so nothing stale survives) with
 * the data of each area in a handful of files (PACKED below; 30,000 small
 * files made `npm install` take 44-76 s), compiles the reader
 * (packages/dataset/src) with the lib files it shares with the server, then
 * runs `npm pack` into <out>. Version: packages/dataset/package.json's
 * version with the dataset version as prerelease, `0.1.0-data-<manifest.version>`,
 * so the package version changes exactly when the data does.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib';
import ts from 'typescript';
import type { BusinessDaysLocation, BusinessDaysLocations, Manifest, TimezonesIndex, TravelIndex } from '../lib/schema-types.js';
import { datasetVersion, sha256 } from '../pipeline/stages/emit-manifest.js';
import { TZ_FIRST_YEAR, TZ_LAST_YEAR } from '../pipeline/config.js';

const ROOT = join(import.meta.dirname, '..');
const PKG_SRC = join(ROOT, 'packages', 'dataset');
/** lib/ files the reader imports (as ./<name>.js); each must be pure (no I/O) and import only files listed here. */
export const LIB_FILES = ['schema-types.ts', 'zone-timeline.ts', 'location-calendar.ts', 'business-answers.ts', 'business-calendar.ts', 'plain-date.ts', 'workweek.ts', 'location-code.ts'];

/** semver.org's regular expression for a valid version. */
const SEMVER_RE = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB (${bytes} bytes)`;

/** Every file under `dir`, as '/'-separated paths relative to it, sorted. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/**
 * Checks the staged data/ against its manifest: every listed file present with
 * its sha256 and size, no unlisted file, and the version recomputed as
 * pipeline/stages/emit-manifest.ts does. Throws on the first problem list.
 */
export function verifyData(dataDir: string): Manifest {
  const manifest = JSON.parse(readFileSync(join(dataDir, 'manifest.json'), 'utf8')) as Manifest;
  const problems: string[] = [];
  const onDisk = new Set(listFiles(dataDir));
  onDisk.delete('manifest.json');
  for (const [path, want] of Object.entries(manifest.files)) {
    if (!onDisk.delete(path)) {
      problems.push(`missing: ${path}`);
      continue;
    }
    const bytes = readFileSync(join(dataDir, path));
    if (bytes.length !== want.bytes || sha256(bytes) !== want.sha256) problems.push(`changed: ${path}`);
  }
  for (const path of onDisk) problems.push(`not in the manifest: ${path}`);
  const version = datasetVersion(manifest.files);
  if (version !== manifest.version) problems.push(`manifest version ${manifest.version} is not its files' hash ${version}`);
  if (problems.length > 0) {
    throw new Error(`refusing to pack: ${problems.length} problem(s) in ${dataDir}\n  ${problems.slice(0, 20).join('\n  ')}`);
  }
  return manifest;
}

/** The package version: the template's, with the dataset version as prerelease (one identifier, so always valid). */
export function packageVersion(base: string, datasetVersion: string): string {
  const version = `${base}-data-${datasetVersion}`;
  if (!SEMVER_RE.test(version) || base.includes('-') || base.includes('+')) throw new Error(`not a valid package version: ${version}`);
  return version;
}

/**
 * The package's data/, from a verified dist-data/v1 (only the files named
 * here: nothing else the dataset grows, bulk tables or feeds, is shipped):
 *   manifest.json, attribution.json                  as they are
 *   countries/index.json, timezones/index.json,
 *   travel/index.json, business-days/index.json      as they are
 *   timezones/zones.json                             {id: zone document}, every timezones/zones/{id}.json
 *   travel/destinations.json                         {code: document}, every travel/{CODE}.json
 *   business-days/locations.bin                      per location, one brotli-compressed JSON document
 *                                                    {"location": index.json, "years": [year files]}
 *   business-days/locations.json                     {code: [offset, length]} into locations.bin
 * Brotli shrinks a location's 46 year files ~50x (its holidays repeat year
 * after year); a location is decompressed on first use, never the whole area.
 */
export function packData(v1: string, dataDir: string): { files: number; bytes: number } {
  const read = (path: string) => readFileSync(join(v1, path), 'utf8');
  const json = <T>(path: string) => JSON.parse(read(path)) as T;
  const written: string[] = [];
  const write = (path: string, body: string | Uint8Array) => {
    mkdirSync(dirname(join(dataDir, path)), { recursive: true });
    writeFileSync(join(dataDir, path), body);
    written.push(path);
  };
  for (const path of ['manifest.json', 'attribution.json', 'countries/index.json', 'timezones/index.json', 'travel/index.json', 'business-days/index.json']) write(path, read(path));

  const zones = json<TimezonesIndex>('timezones/index.json').zones.map((z) => [z.id, json(`timezones/zones/${z.id}.json`)]);
  write('timezones/zones.json', JSON.stringify(Object.fromEntries(zones)));
  const travel = json<TravelIndex>('travel/index.json').destinations.map((d) => [d, json(`travel/${d}.json`)]);
  write('travel/destinations.json', JSON.stringify(Object.fromEntries(travel)));

  const blobs: Buffer[] = [];
  const offsets: Record<string, [number, number]> = {};
  let offset = 0;
  for (const { location } of json<BusinessDaysLocations>('business-days/index.json').locations) {
    const meta = json<BusinessDaysLocation>(`business-days/${location}/index.json`);
    const years = meta.years.map((y) => json(`business-days/${location}/${y}.json`));
    const text = JSON.stringify({ location: meta, years });
    // Quality 9: 5 s for every location; 11 saves 17 % more but takes minutes.
    const blob = brotliCompressSync(text, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text) } });
    if (brotliDecompressSync(blob).toString('utf8') !== text) throw new Error(`brotli round trip differs for ${location}`);
    offsets[location] = [offset, blob.length];
    blobs.push(blob);
    offset += blob.length;
  }
  write('business-days/locations.bin', Buffer.concat(blobs));
  write('business-days/locations.json', JSON.stringify(offsets));
  const bytes = written.reduce((n, p) => n + readFileSync(join(dataDir, p)).length, 0);
  return { files: written.length, bytes };
}

/** Compiles the reader and the generated schema types into `pkgDir` (index.js, index.d.ts, …). */
function compileReader(pkgDir: string): void {
  // The types are generated from schemas/; refuse stale ones rather than ship them.
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'gen-types.ts'), '--check'], { cwd: ROOT, stdio: 'inherit' });
  const src = mkdtempSync(join(tmpdir(), 'refdata-dataset-src-'));
  try {
    cpSync(join(PKG_SRC, 'src'), src, { recursive: true });
    // Shared with the server, copied in beside the reader: one implementation of the types, of offsets at an
    // instant, and of the calendar model and the business-day answers.
    for (const f of LIB_FILES) copyFileSync(join(ROOT, 'lib', f), join(src, f));
    writeFileSync(join(src, 'package.json'), '{"type":"module"}\n'); // NodeNext emits ESM only under "type": "module"
    const config = ts.getParsedCommandLineOfConfigFile(join(PKG_SRC, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
    if (!config) throw new Error('cannot read packages/dataset/tsconfig.json');
    const options: ts.CompilerOptions = {
      ...config.options,
      noEmit: false,
      rootDir: src,
      rootDirs: undefined,
      outDir: pkgDir,
      typeRoots: [join(ROOT, 'node_modules', '@types')],
    };
    const files = readdirSync(src).filter((f) => f.endsWith('.ts')).map((f) => join(src, f));
    const program = ts.createProgram(files, options);
    const result = program.emit();
    const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
    if (diagnostics.length > 0) {
      const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
      throw new Error(`the reader does not compile:\n${ts.formatDiagnostics(diagnostics, host)}`);
    }
    rmSync(join(pkgDir, 'schema-types.js')); // types only: an empty module nobody imports
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
}

/** date-holidays' LICENSE carries the Wikipedia attributions its CC BY-SA data needs; it must be the version we built from. */
function copyDateHolidaysLicense(pkgDir: string, manifest: Manifest): void {
  const dir = join(ROOT, 'node_modules', 'date-holidays');
  const installed = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const built = manifest.sources['date-holidays']?.version;
  if (installed !== built) throw new Error(`date-holidays ${installed} is installed but the data was built from ${built}`);
  copyFileSync(join(dir, 'LICENSE'), join(pkgDir, 'LICENSE-date-holidays'));
}

function writePackageJson(pkgDir: string, manifest: Manifest): string {
  const template = JSON.parse(readFileSync(join(PKG_SRC, 'package.json'), 'utf8')) as Record<string, unknown>;
  const version = packageVersion(String(template.version), manifest.version);
  const pkg = { ...template, version, refdata: { datasetVersion: manifest.version, sources: manifest.sources } };
  writeFileSync(join(pkgDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return version;
}

/**
 * The package README from packages/dataset/README.md with its {{placeholders}} filled from the manifest and
 * this pack: the counts and range it states and the tarball's own file name are always this package's.
 */
function writeReadme(pkgDir: string, manifest: Manifest, version: string, data: { files: number; bytes: number }): void {
  const c = manifest.counts as Record<string, number>;
  const values: Record<string, string | number> = {
    locations: c.locations,
    first_year: c.first_year,
    last_year: c.last_year,
    timezones: c.timezones,
    iso_countries: c.iso_countries,
    tz_first_year: TZ_FIRST_YEAR,
    tz_last_year: TZ_LAST_YEAR,
    tarball: `refdata-dataset-${version}.tgz`,
    data_files: data.files,
    data_mb: (data.bytes / 1e6).toFixed(1),
    package_files: listFiles(pkgDir).length + 1, // and the README itself
  };
  const text = readFileSync(join(PKG_SRC, 'README.md'), 'utf8').replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    if (values[key] === undefined) throw new Error(`packages/dataset/README.md: unknown placeholder ${whole}`);
    return String(values[key]);
  });
  writeFileSync(join(pkgDir, 'README.md'), text);
}

/** Same modes on every machine (a umask must not change the tarball). */
function normaliseModes(dir: string): void {
  for (const path of listFiles(dir)) chmodSync(join(dir, path), 0o644);
}

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  integrity: string;
}

function npmPack(pkgDir: string, outDir: string): PackResult {
  const json = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir], {
    cwd: pkgDir,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return (JSON.parse(json) as PackResult[])[0];
}

export function packDataset(opts: { data: string; out: string }) {
  const times: Record<string, number> = {};
  const timed = <T>(name: string, fn: () => T): T => {
    const t0 = performance.now();
    const value = fn();
    times[name] = (performance.now() - t0) / 1000;
    return value;
  };
  const pkgDir = join(opts.out, 'dataset-package');
  rmSync(pkgDir, { recursive: true, force: true });
  mkdirSync(pkgDir, { recursive: true });

  const manifest = timed('verify', () => verifyData(join(opts.data, 'v1')));
  const data = timed('data', () => packData(join(opts.data, 'v1'), join(pkgDir, 'data')));
  timed('compile', () => compileReader(pkgDir));
  copyFileSync(join(PKG_SRC, 'LICENSE'), join(pkgDir, 'LICENSE'));
  copyDateHolidaysLicense(pkgDir, manifest);
  const version = writePackageJson(pkgDir, manifest);
  writeReadme(pkgDir, manifest, version, data);
  normaliseModes(pkgDir);
  const packed = timed('pack', () => npmPack(pkgDir, opts.out));
  return { ...packed, tarball: join(opts.out, packed.filename), version, datasetVersion: manifest.version, dataFiles: data.files, dataBytes: data.bytes, verifiedFiles: Object.keys(manifest.files).length + 1, times };
}

function main() {
  const { values } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' } } });
  const data = resolve(values.data ?? join(ROOT, 'dist-data'));
  const out = resolve(values.out ?? join(ROOT, 'build'));
  const r = packDataset({ data, out });
  const t = r.times;
  console.log(`packed ${r.tarball}`);
  console.log(`  version    ${r.version} (dataset ${r.datasetVersion})`);
  console.log(`  tarball    ${mb(r.size)}, ${r.integrity}`);
  console.log(`  unpacked   ${mb(r.unpackedSize)}`);
  console.log(`  files      ${r.entryCount} (${r.dataFiles} under data/, ${mb(r.dataBytes)}, made from ${r.verifiedFiles} dataset files verified against manifest.json)`);
  console.log(`  time       verify ${t.verify.toFixed(1)} s, data ${t.data.toFixed(1)} s, compile ${t.compile.toFixed(1)} s, npm pack ${t.pack.toFixed(1)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) main();
