/**
 * npm run publish -- <target> [--keep K] [--data DIR]
 *
 * Publishes a built dataset (dist-data/v1) to a static host: a folder, or any rclone remote
 * ("s3:bucket/path", "r2:…", a remote rclone's config or RCLONE_CONFIG_* variables define).
 * The layout and headers are lib/static-hosting.ts's:
 *
 *   1. the local dataset is checked against its manifest (every file's sha256); any
 *      difference stops the publish before anything is written;
 *   2. the files go under v1/<version>/: those whose sha256 the current version on the
 *      host already has are copied there by the host (a hard link in a folder, a
 *      server-side copy on a remote), the rest are sent, with Content-Type and
 *      Cache-Control per file family;
 *   3. what is under v1/<version>/ is checked against the manifest (sha256 in a folder; on
 *      a remote the listing and each object's MD5 against the local files just checked);
 *   4. only then v1/versions.json and last the pointer v1/current.json are replaced (and,
 *      in a folder, the v1/current link), so readers move to the new version at once;
 *   5. versions beyond the newest K (default 3), and folders of publishes that never
 *      finished, are removed.
 *
 * An interrupted publish leaves the pointer on the previous version; running it again
 * finishes it (files already in place are kept, the check in 3 catches a damaged one).
 * Exit status: 0 published (or already current), 1 refused or failed (the reason on stderr),
 * 2 bad arguments. Progress goes to stderr; the last line of stdout is a summary.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import Ajv2020 from 'ajv/dist/2020.js';
import { checkManifest, renderManifestProblems, type FileFacts } from '../lib/data-diff/verify.js';
import type { Manifest } from '../lib/schema-types.js';
import { familyOf, FILE_FAMILIES, nextVersions, POINTER, publishPlan, staticHeaders, VERSION_PATTERN, VERSIONS, type StaticPointer, type StaticVersions } from '../lib/static-hosting.js';
import { datasetVersion } from '../pipeline/stages/emit-manifest.js';
import { filesOnDisk } from './dataset-files.js';

const USAGE = 'usage: npm run publish -- <target> [--keep K] [--data DIR]\n  target: a folder, or an rclone remote (name:path)\n  --keep: versions to keep on the host (default 3)\n  --data: the built dataset, a folder holding v1/ (default dist-data)';

class Refused extends Error {}

const say = (line: string) => process.stderr.write(`publish: ${line}\n`);

/** What a host must do; a folder and an rclone remote do it differently. */
interface Host {
  name: string;
  /** A text file under v1/, or undefined when it is not there. */
  read(path: string): Promise<string | undefined>;
  /** The version folders under v1/. */
  versionFolders(): Promise<string[]>;
  /** Copies files of one version to another on the host, without sending their bytes; returns how many it copied so (files already in place are not counted). */
  reuse(from: string, to: string, paths: string[]): Promise<number>;
  /** Sends files from the local dataset into a version's folder; files already there are kept unless `overwrite`. */
  send(localV1: string, to: string, paths: string[], overwrite?: boolean): Promise<void>;
  /** Removes one file of a version's folder. */
  removeFile(version: string, path: string): Promise<void>;
  /** What differs between a version's folder and the files it must hold (local facts, already checked). */
  check(version: string, expected: ReadonlyMap<string, FileFacts>, localV1: string): Promise<string[]>;
  /** Writes v1/versions.json, then (last) v1/current.json, each replacing the old one whole. */
  point(versions: string, pointer: string, version: string): Promise<void>;
  remove(version: string): Promise<void>;
}

/** A pool of `width` workers over `items`, with a progress line every `every` items. */
async function pool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>, label: string, every = 10_000): Promise<void> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
      if (++done % every === 0) say(`${label}: ${done.toLocaleString('en')} of ${items.length.toLocaleString('en')}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** A folder: versions as folders, unchanged files hard-linked from the previous version. */
function folderHost(root: string): Host {
  const v1 = join(root, 'v1');
  /** Writes `text` to `path` whole: a reader sees the old file or the new one, never a part. */
  const replace = async (path: string, text: string) => {
    const tmp = `${path}.tmp-${process.pid}`;
    await writeFile(tmp, text);
    await rename(tmp, path);
  };
  const placed = async (file: string) => existsSync(file);
  return {
    name: `folder ${root}`,
    async read(path) {
      try {
        return await readFile(join(v1, path), 'utf8');
      } catch {
        return undefined;
      }
    },
    async versionFolders() {
      if (!existsSync(v1)) return [];
      return (await readdir(v1, { withFileTypes: true })).filter((e) => e.isDirectory() && VERSION_PATTERN.test(e.name)).map((e) => e.name);
    },
    async reuse(from, to, paths) {
      let linked = 0;
      await pool(
        paths,
        32,
        async (path) => {
          const dest = join(v1, to, path);
          if (await placed(dest)) return;
          await mkdir(dirname(dest), { recursive: true });
          try {
            await link(join(v1, from, path), dest);
            linked++;
          } catch (err) {
            // Another file system, or one without hard links: a copy, made whole before it appears.
            if (!['EXDEV', 'EPERM', 'ENOTSUP'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
            await copyFile(join(v1, from, path), `${dest}.tmp-${process.pid}`);
            await rename(`${dest}.tmp-${process.pid}`, dest);
            linked++;
          }
        },
        'reused',
      );
      return linked;
    },
    async send(localV1, to, paths, overwrite = false) {
      await pool(
        paths,
        32,
        async (path) => {
          const dest = join(v1, to, path);
          if (!overwrite && (await placed(dest))) return;
          await mkdir(dirname(dest), { recursive: true });
          await copyFile(join(localV1, path), `${dest}.tmp-${process.pid}`);
          await rename(`${dest}.tmp-${process.pid}`, dest);
        },
        'sent',
      );
    },
    async check(version, expected) {
      const dir = join(v1, version);
      if (!existsSync(dir)) return [...expected.keys()].map((p) => `missing ${p}`);
      const found = filesOnDisk(dir, (n) => n % 20_000 === 0 && say(`checked ${n.toLocaleString('en')} files on the host`));
      const files = Object.fromEntries([...expected].filter(([p]) => p !== 'manifest.json'));
      const lines = checkManifest({ files } as unknown as Manifest, found).map((p) => `${p.kind} ${p.path}`);
      const manifest = join(dir, 'manifest.json');
      if (!existsSync(manifest)) lines.push('missing manifest.json');
      else if (createHash('sha256').update(readFileSync(manifest)).digest('hex') !== expected.get('manifest.json')!.sha256) lines.push('changed manifest.json');
      return lines;
    },
    async removeFile(version, path) {
      await rm(join(v1, version, path), { force: true });
    },
    async point(versions, pointer, version) {
      await mkdir(v1, { recursive: true });
      await replace(join(v1, VERSIONS), versions);
      // The link web servers follow for the unversioned paths (deploy/nginx.conf), swapped whole.
      const tmpLink = join(v1, `current.tmp-${process.pid}`);
      await rm(tmpLink, { force: true });
      await symlink(version, tmpLink);
      await rename(tmpLink, join(v1, 'current'));
      await replace(join(v1, POINTER), pointer);
    },
    async remove(version) {
      await rm(join(v1, version), { recursive: true, force: true });
    },
  };
}

const run = promisify(execFile);

/** An rclone remote: unchanged files are server-side copies, headers set at upload. */
function rcloneHost(target: string): Host {
  const v1 = `${target.replace(/\/+$/, '')}/v1`;
  // Debian's rclone (1.60) cannot start an S3 remote while AWS_CA_BUNDLE is set ("LoadCustomCABundleError:
  // unsupported transport"): the same bundle goes to rclone's own --ca-cert instead.
  const { AWS_CA_BUNDLE: caBundle, ...env } = process.env;
  const common = caBundle ? ['--ca-cert', caBundle] : [];
  const rcloneOut = (args: string[]) => run('rclone', [...args, ...common], { env, maxBuffer: 512 * 1024 * 1024 });
  const rclone = async (args: string[]) => (await rcloneOut(args)).stdout;
  /** A file listing for --files-from (one path per line). */
  const listFile = async (paths: string[]) => {
    const dir = await mkdtemp(join(tmpdir(), 'refdata-publish-'));
    const file = join(dir, 'files.txt');
    await writeFile(file, paths.join('\n') + '\n');
    return { file, done: () => rm(dir, { recursive: true, force: true }) };
  };
  const headerArgs = (path: string) => {
    const h = staticHeaders(path)!;
    return ['--header-upload', `Content-Type: ${h['Content-Type']}`, '--header-upload', `Cache-Control: ${h['Cache-Control']}`];
  };
  const upload = async (text: string, path: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'refdata-publish-'));
    try {
      await writeFile(join(dir, 'f'), text);
      await rclone(['copyto', join(dir, 'f'), `${v1}/${path}`, ...headerArgs(path)]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  /** The local files' MD5s, read once however many times the host is checked (up to three per publish). */
  const md5s = new Map<string, string>();
  const localMd5 = (localV1: string, path: string) => {
    let md5 = md5s.get(path);
    if (md5 === undefined) md5s.set(path, (md5 = createHash('md5').update(readFileSync(join(localV1, path))).digest('hex')));
    return md5;
  };
  return {
    name: `rclone remote ${target}`,
    async read(path) {
      try {
        // `rclone cat` of a missing object reads the "folder" of that name: nothing, and success. Ask first.
        if ((await rclone(['lsf', '--files-only', `${v1}/${path}`])).trim() === '') return undefined;
        return await rclone(['cat', `${v1}/${path}`]);
      } catch {
        return undefined;
      }
    },
    async versionFolders() {
      let out: string;
      try {
        out = await rclone(['lsf', '--dirs-only', `${v1}/`]);
      } catch {
        return [];
      }
      return out.split('\n').map((l) => l.replace(/\/$/, '')).filter((n) => VERSION_PATTERN.test(n));
    },
    async reuse(from, to, paths) {
      if (paths.length === 0) return 0;
      const list = await listFile(paths);
      try {
        // Same remote on both sides: rclone copies on the server (S3 CopyObject keeps each object's headers),
        // and says so per file at -v; a backend without server-side copy would download and upload instead.
        // --no-traverse: each listed file is looked up by name rather than found by listing its folders, which
        // costs a request per file but does not depend on the server's folder listings (s3rver's omit folders).
        const { stderr } = await rcloneOut(['copy', `${v1}/${from}`, `${v1}/${to}`, '--files-from', list.file, '--no-traverse', '--transfers', '32', '--checkers', '32', '-v']);
        return stderr.split('\n').filter((l) => l.includes('Copied (server-side copy)')).length;
      } finally {
        await list.done();
      }
    },
    async send(localV1, to, paths) {
      // rclone replaces a file whose size or time differs, so a damaged one is sent again without `overwrite`.
      // One upload per file family: rclone sets the same headers on every file of one invocation.
      for (const family of FILE_FAMILIES) {
        const mine = paths.filter((p) => familyOf(p) === family);
        if (mine.length === 0) continue;
        say(`sending ${mine.length.toLocaleString('en')} ${family.suffix} files`);
        const list = await listFile(mine);
        try {
          await rclone(['copy', localV1, `${v1}/${to}`, '--files-from', list.file, '--transfers', '16', ...headerArgs(`${to}/x${family.suffix}`)]);
        } finally {
          await list.done();
        }
      }
    },
    async check(version, expected, localV1) {
      // Remotes keep MD5s, not sha256s: the local files were checked against the manifest's sha256s,
      // so a remote object with the same path, size and MD5 holds the same bytes.
      const out = await rclone(['md5sum', `${v1}/${version}`]);
      const remote = new Map(out.split('\n').filter(Boolean).map((l) => [l.slice(34), l.slice(0, 32)] as const));
      const lines: string[] = [];
      for (const path of expected.keys()) {
        const md5 = remote.get(path);
        if (md5 === undefined) lines.push(`missing ${path}`);
        else if (md5 !== localMd5(localV1, path)) lines.push(`changed ${path}`);
      }
      for (const path of remote.keys()) if (!expected.has(path)) lines.push(`unlisted ${path}`);
      return lines;
    },
    async point(versions, pointer) {
      await upload(versions, VERSIONS);
      await upload(pointer, POINTER);
    },
    async removeFile(version, path) {
      await rclone(['deletefile', `${v1}/${version}/${path}`]);
    },
    async remove(version) {
      await rclone(['purge', `${v1}/${version}`]);
    },
  };
}

/** A remote is "name:path" with a name rclone knows; anything else (./out, /srv/www, C:\x) is a folder. */
export function isRemote(target: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9_ .-]*:/.test(target) && !/^[A-Za-z]:[\\/]/.test(target);
}

function validator(schema: string) {
  const ajv = new Ajv2020.default({ strict: true });
  return ajv.compile(JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schemas', schema), 'utf8')));
}

export interface PublishResult {
  version: string;
  /** The version the pointer named before, if any. */
  previous?: string;
  sentFiles: number;
  sentBytes: number;
  reusedFiles: number;
  /** Of those, the copies the host made itself in this run (hard links, server-side copies). */
  copiedOnHost: number;
  pruned: string[];
  /** Nothing was written: the pointer already named this version and its files were all in place. */
  current: boolean;
}

/** Publishes the dataset in `dataDir` (holding v1/) to `target`; throws Refused with the reason. */
export async function publish(target: string, { dataDir = 'dist-data', keep = 3 }: { dataDir?: string; keep?: number } = {}): Promise<PublishResult> {
  const localV1 = existsSync(join(resolve(dataDir), 'v1', 'manifest.json')) ? join(resolve(dataDir), 'v1') : resolve(dataDir);
  if (!existsSync(join(localV1, 'manifest.json'))) throw new Refused(`${dataDir} holds no built dataset (no v1/manifest.json): run \`npm run build\` first`);
  const manifestText = readFileSync(join(localV1, 'manifest.json'));
  const manifest = JSON.parse(manifestText.toString('utf8')) as Manifest;
  const version = manifest.version;

  // 1. The local dataset is exactly what its manifest says, and every file is of a known family.
  say(`checking ${Object.keys(manifest.files).length.toLocaleString('en')} files of dataset ${version} against its manifest`);
  const local = filesOnDisk(localV1, (n) => n % 20_000 === 0 && say(`checked ${n.toLocaleString('en')} local files`));
  const problems = checkManifest(manifest, local, datasetVersion(manifest.files));
  if (problems.length > 0) throw new Refused(renderManifestProblems(`the dataset in ${localV1}`, problems));
  const unknown = Object.keys(manifest.files).filter((p) => familyOf(p) === undefined);
  if (unknown.length > 0) throw new Refused(`files of a kind the static contract does not know (lib/static-hosting.ts FILE_FAMILIES): ${unknown.slice(0, 5).join(', ')}`);
  const expected = new Map<string, FileFacts>(Object.entries(manifest.files).map(([p, f]) => [p, { bytes: f.bytes, sha256: f.sha256 }]));
  expected.set('manifest.json', { bytes: manifestText.length, sha256: createHash('sha256').update(manifestText).digest('hex') });

  const host = isRemote(target) ? rcloneHost(target) : folderHost(resolve(target));
  say(`publishing to ${host.name}`);

  // 2. What the current version on the host already holds is reused.
  const pointerText = await host.read(POINTER);
  const pointer = pointerText === undefined ? undefined : (JSON.parse(pointerText) as StaticPointer);
  const listText = await host.read(VERSIONS);
  const list = listText === undefined ? [] : (JSON.parse(listText) as StaticVersions).versions;
  let previousFiles: Manifest['files'] | undefined;
  if (pointer && pointer.version !== version) {
    const text = await host.read(`${pointer.prefix}manifest.json`);
    previousFiles = text === undefined ? undefined : (JSON.parse(text) as Manifest).files;
  }
  const plan = publishPlan(Object.fromEntries(expected), previousFiles);
  if (pointer?.version === version) {
    // Already current: only check that the folder is whole (an interrupted prune or a damaged file).
    const damaged = await host.check(version, expected, localV1);
    if (damaged.length === 0) return { version, previous: version, sentFiles: 0, sentBytes: 0, reusedFiles: 0, copiedOnHost: 0, pruned: [], current: true };
  }
  say(`${plan.reuse.length.toLocaleString('en')} files reused from ${pointer?.version ?? '(none)'}, ${plan.send.length.toLocaleString('en')} files (${(plan.sendBytes / 1e6).toFixed(1)} MB) to send`);
  const copiedOnHost = pointer && plan.reuse.length > 0 ? await host.reuse(pointer.version, version, plan.reuse) : 0;
  // manifest.json last among the version's files: a folder holding it is complete unless a check says otherwise.
  await host.send(localV1, version, plan.send.filter((p) => p !== 'manifest.json'));
  await host.send(localV1, version, ['manifest.json']);

  // 3. Check what the host holds before anyone is pointed at it.
  say('checking what the host holds');
  let damaged = await host.check(version, expected, localV1);
  if (damaged.length > 0) {
    // Files left by an interrupted run, or damaged: sent once more, then checked again.
    say(`${damaged.length} files differ on the host; sending them again`);
    const paths = (kind: string) => damaged.filter((l) => l.startsWith(`${kind} `)).map((l) => l.slice(kind.length + 1));
    for (const path of paths('unlisted')) await host.removeFile(version, path);
    await host.send(localV1, version, [...paths('missing'), ...paths('changed')].filter((p) => expected.has(p)), true);
    damaged = await host.check(version, expected, localV1);
    if (damaged.length > 0) throw new Refused(`the host's copy of ${version} does not match its manifest; the pointer was not moved:\n  ${damaged.slice(0, 20).join('\n  ')}`);
  }

  // 4. The version list, then the pointer: from now on readers start from this version.
  const { versions, prune } = nextVersions(list, version, keep);
  const newPointer: StaticPointer = { dataset: 'refdata', version, prefix: `${version}/`, manifest_sha256: expected.get('manifest.json')!.sha256 };
  const newList: StaticVersions = { versions };
  const [checkPointer, checkList] = [validator('static-pointer.schema.json'), validator('static-versions.schema.json')];
  if (!checkPointer(newPointer) || !checkList(newList)) throw new Refused('the pointer or the version list does not match its schema');
  await host.point(JSON.stringify(newList, null, 2) + '\n', JSON.stringify(newPointer, null, 2) + '\n', version);
  say(`v1/${POINTER} now names ${version}`);

  // 5. Older versions, and folders of publishes that never finished, go.
  const kept = new Set(versions);
  const gone = [...new Set([...prune, ...(await host.versionFolders()).filter((v) => !kept.has(v))])];
  for (const v of gone) await host.remove(v);
  if (gone.length > 0) say(`removed ${gone.join(', ')}`);
  return { version, previous: pointer?.version, sentFiles: plan.send.length, sentBytes: plan.sendBytes, reusedFiles: plan.reuse.length, copiedOnHost, pruned: gone, current: false };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let args;
  try {
    args = parseArgs({ allowPositionals: true, options: { keep: { type: 'string' }, data: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    console.error(`publish: ${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (args.values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const keep = Number(args.values.keep ?? 3);
  if (args.positionals.length !== 1 || !Number.isInteger(keep) || keep < 1) {
    console.error(`publish: ${args.positionals.length !== 1 ? 'expected one target' : '--keep must be a whole number of at least 1'}\n${USAGE}`);
    process.exit(2);
  }
  const t0 = performance.now();
  try {
    const r = await publish(args.positionals[0]!, { dataDir: args.values.data, keep });
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(
      r.current
        ? `dataset ${r.version} is already current on ${args.positionals[0]}; nothing sent (${s} s)`
        : `published dataset ${r.version} to ${args.positionals[0]} in ${s} s: ${r.sentFiles.toLocaleString('en')} files sent (${(r.sentBytes / 1e6).toFixed(1)} MB), ${r.reusedFiles.toLocaleString('en')} reused from ${r.previous ?? 'nothing'}${r.pruned.length ? `; removed ${r.pruned.join(', ')}` : ''}`,
    );
  } catch (err) {
    console.error(`publish: ${err instanceof Refused ? err.message : (err as Error).stack}`);
    process.exit(1);
  }
}
