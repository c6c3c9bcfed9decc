/**
 * The changelog as a pull-request body: warnings first, changes grouped and
 * capped so the body stays readable.
 */
import { formatOffset } from '../zone-timeline.js';
import { hasChanges } from './dataset.js';
import type { Workweeks } from './locations.js';
import { fieldsText, formatValue, offsetText } from './text.js';
import type { AliasChanges, DataDiff, HolidayChange, LocationRef, RecordChange, TransitionSummary, YearChange } from './types.js';
import { byKey } from './values.js';

/** Caps that keep a pull-request body readable (GitHub stops at 65,536 characters); --json has everything. */
export const LIMITS = { dates: 6, linesPerGroup: 15, groups: 40, items: 40, codes: 12, chars: 60_000 };

// Underscores are left alone: GitHub never reads them as emphasis inside a word (local_name, Buenos_Aires).
const MD_SPECIAL = /[\\`*[\]<>|#]/g;
const md = (text: string) => text.replace(MD_SPECIAL, (c) => `\\${c}`);
const code = (text: string) => `\`${text}\``;

function capped<T>(items: T[], max: number, show: (t: T) => string, what = 'more'): string[] {
  const lines = items.slice(0, max).map(show);
  if (items.length > max) lines.push(`- … and ${items.length - max} ${what}`);
  return lines;
}

function codeList(codes: string[], max = LIMITS.codes): string {
  const shown = codes.slice(0, max).map(code).join(', ');
  return codes.length > max ? `${shown} and ${codes.length - max} more` : shown;
}

/**
 * One line per kind of change of one location, its dates listed:
 * "added **Peace Festival**: 2026-08-08, 2027-08-08".
 */
function locationLines(holidays: HolidayChange[], years: YearChange[]): string[] {
  const groups = new Map<string, string[]>();
  for (const h of holidays) {
    const extra = h.fields.length ? ` (${md(fieldsText(h.fields))})` : '';
    const head = `${h.kind} **${md(h.name)}**${extra}`;
    const date = h.kind === 'moved' ? `${h.old_date} → ${h.date}` : h.date;
    groups.set(head, [...(groups.get(head) ?? []), h.past ? `${date} ⚠️` : date]);
  }
  const lines = [...groups].map(([head, dates]) => `- ${head}: ${listCapped(dates, LIMITS.dates)}`);
  for (const kind of ['added', 'removed'] as const) {
    const ys = years.filter((y) => y.kind === kind);
    if (ys.length) lines.push(`- year files ${kind}: ${ys.map((y) => (y.past_holidays ? `${y.year} ⚠️` : String(y.year))).join(', ')}`);
  }
  return lines;
}

/** Locations with the same lines share one heading (a national change shows up in every state once). */
function holidaySection(diff: DataDiff): string[] {
  const locations = [...new Set([...diff.holidays.map((h) => h.location), ...diff.years.map((y) => y.location)])].sort();
  const groups = new Map<string, { locations: string[]; lines: string[] }>();
  for (const loc of locations) {
    const lines = locationLines(
      diff.holidays.filter((h) => h.location === loc),
      diff.years.filter((y) => y.location === loc),
    );
    const key = lines.join('\n');
    const g = groups.get(key) ?? { locations: [], lines };
    g.locations.push(loc);
    groups.set(key, g);
  }
  if (!groups.size) return [];
  const count = (k: HolidayChange['kind']) => diff.holidays.filter((h) => h.kind === k).length;
  const out = [
    '### Holidays',
    '',
    `${count('added')} added, ${count('removed')} removed, ${count('moved')} moved, ${count('changed')} changed in ${locations.length} location${locations.length === 1 ? '' : 's'}; ⚠️ marks dates before ${diff.today}.`,
  ];
  for (const g of [...groups.values()].slice(0, LIMITS.groups)) {
    out.push('', `#### ${codeList(g.locations)}`, '');
    out.push(...capped(g.lines, LIMITS.linesPerGroup, (l) => l, 'more changes'));
  }
  if (groups.size > LIMITS.groups) out.push('', `… and ${groups.size - LIMITS.groups} more location groups (run with --json for all).`);
  return out;
}

const WEEKDAY_SHORT: Record<string, string> = { monday: 'Mon', tuesday: 'Tue', wednesday: 'Wed', thursday: 'Thu', friday: 'Fri', saturday: 'Sat', sunday: 'Sun' };

function workweeksText(w: Workweeks): string {
  return w.map((p) => `${p.workweek.map((d) => WEEKDAY_SHORT[d] ?? d).join(' ')}${p.from || p.until ? ` (${p.from ?? '…'} to ${p.until ?? '…'})` : ''}`).join('; ');
}

function locationSection(diff: DataDiff): string[] {
  const { added, removed, changed } = diff.locations;
  if (!added.length && !removed.length && !changed.length) return [];
  const out = ['### Business-day locations', ''];
  const ref = (l: LocationRef) => `${code(l.location)} ${md(l.name)}`;
  if (added.length) out.push(`- Added (${added.length}): ${added.slice(0, LIMITS.items).map(ref).join(', ')}${added.length > LIMITS.items ? ', …' : ''}`);
  if (removed.length) out.push(`- Removed (${removed.length}): ${removed.slice(0, LIMITS.items).map(ref).join(', ')}${removed.length > LIMITS.items ? ', …' : ''}`);
  out.push(
    ...capped(changed, LIMITS.items, (c) => {
      const parts = [];
      if (c.workweek_from !== undefined) {
        parts.push(`workweek differs from ${c.workweek_from ?? 'the start of the data'}: ${workweeksText(c.old_workweeks!)} → ${workweeksText(c.new_workweeks!)}`);
      }
      if (c.fields.length) parts.push(md(fieldsText(c.fields)));
      return `- ${code(c.location)}: ${parts.join('; ')}`;
    }),
  );
  return out;
}

function transitionsText(verb: string, t: TransitionSummary): string {
  if (!t.count) return '';
  const span = t.first === t.last ? t.first : `${t.first} … ${t.last}`;
  return `${t.count} transition${t.count === 1 ? '' : 's'} ${verb} (${span})`;
}

function aliasLines(label: string, a: AliasChanges): string[] {
  const parts = [
    ...a.added.map((x) => `+${code(x.alias)} → ${code(x.target)}`),
    ...a.removed.map((x) => `−${code(x.alias)} (was → ${code(x.target)})`),
    ...a.retargeted.map((x) => `${code(x.alias)}: ${code(x.old)} → ${code(x.new)}`),
  ];
  if (!parts.length) return [];
  return [`- ${label}: ${parts.slice(0, LIMITS.codes).join(', ')}${parts.length > LIMITS.codes ? ` and ${parts.length - LIMITS.codes} more` : ''}`];
}

function zoneSection(diff: DataDiff): string[] {
  const z = diff.zones;
  const lines: string[] = [];
  if (z.added.length) lines.push(`- Zones added: ${codeList(z.added)}`);
  if (z.removed.length) lines.push(`- Zones removed: ${codeList(z.removed)}`);
  lines.push(
    ...capped(z.changed, LIMITS.items, (c) => {
      const parts = [
        c.offset ? offsetText(c.offset) + (c.offset.at < `${diff.today}T00:00:00Z` ? ' ⚠️' : '') : 'same offsets',
        c.standard_offset ? `standard offset ${formatOffset(c.standard_offset.old)} → ${formatOffset(c.standard_offset.new)}` : '',
        transitionsText('added', c.transitions_added),
        transitionsText('removed', c.transitions_removed),
        c.fields.length ? md(fieldsText(c.fields)) : '',
      ];
      return `- ${code(c.zone)}: ${parts.filter(Boolean).join('; ')}`;
    }),
  );
  lines.push(...aliasLines('Aliases', z.aliases));
  for (const m of z.metadata) lines.push(`- ${m.field} ${formatValue(m.old)} → ${formatValue(m.new)} in ${m.zones} zone document${m.zones === 1 ? '' : 's'}`);
  return lines.length ? ['### Time zones', '', ...lines] : [];
}

function recordSection(title: string, noun: string, r: { added: string[]; removed: string[]; changed: RecordChange[] }, extra: string[] = []): string[] {
  const lines: string[] = [];
  if (r.added.length) lines.push(`- ${noun} added: ${codeList(r.added)}`);
  if (r.removed.length) lines.push(`- ${noun} removed: ${codeList(r.removed)}`);
  lines.push(...capped(r.changed, LIMITS.items, (c) => `- ${code(c.code)}: ${md(fieldsText(c.fields))}`), ...extra);
  return lines.length ? [`### ${title}`, '', ...lines] : [];
}

/** "a, b, c … and 3 more" */
function listCapped(items: string[], max: number): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} … and ${items.length - max} more` : items.join(', ');
}

/**
 * One line per change, its dates listed, and the locations with exactly the
 * same dates on one line: a national holiday removed in 2020-2025 is one
 * line, not a hundred.
 */
function warningSection(diff: DataDiff): string[] {
  if (!diff.warnings.length) return [];
  const perSubject = new Map<string, { subject: string; change: string; date: string; whens: string[] }>();
  for (const w of diff.warnings) {
    const k = `${w.subject}\0${w.change}`;
    const g = perSubject.get(k) ?? { subject: w.subject, change: w.change, date: w.date, whens: [] };
    g.whens.push(w.when);
    perSubject.set(k, g);
  }
  const lines = new Map<string, { subjects: string[]; change: string; date: string; whens: string[] }>();
  for (const g of perSubject.values()) {
    const k = `${g.change}\0${g.whens.join('\0')}`;
    const l = lines.get(k) ?? { subjects: [], change: g.change, date: g.date, whens: g.whens };
    l.subjects.push(g.subject);
    lines.set(k, l);
  }
  const sorted = [...lines.values()].sort(byKey((l) => `${l.date}\0${l.subjects[0]}\0${l.change}`));
  const n = diff.warnings.length;
  return [
    `### ⚠️ Warnings: ${n} change${n === 1 ? '' : 's'} to dates before ${diff.today}`,
    '',
    'Past business days, payroll and invoices computed with the old data would differ. Check each against an official source before merging.',
    '',
    ...capped(sorted, LIMITS.items, (l) => `- ${codeList(l.subjects, 6)}: ${md(l.change)} — ${listCapped(l.whens, LIMITS.dates)}`),
  ];
}

/** Years whose basis changed, one line per location and change, years as ranges. */
function basisSection(diff: DataDiff): string[] {
  if (!diff.basis.length) return [];
  const groups = new Map<string, { location: string; old: string; new: string; years: number[] }>();
  for (const b of diff.basis) {
    const k = `${b.location}\0${b.old}\0${b.new}`;
    const g = groups.get(k) ?? { location: b.location, old: b.old, new: b.new, years: [] };
    g.years.push(b.year);
    groups.set(k, g);
  }
  const ranges = (ys: number[]) => {
    const out: string[] = [];
    for (const y of [...ys].sort((a, b) => a - b)) {
      const last = out.at(-1);
      const m = last ? /^(\d{4})(?:-(\d{4}))?$/.exec(last) : null;
      if (m && Number(m[2] ?? m[1]) === y - 1) out[out.length - 1] = `${m[1]}-${y}`;
      else out.push(String(y));
    }
    return out.join(', ');
  };
  const n = diff.basis.length;
  return [
    `### Basis: ${n} location-year${n === 1 ? '' : 's'} changed`,
    '',
    'official = a published government schedule we cite; corroborated = projected, and both independent sources agree on every day; rules = one source\'s projection. A change here changes many answers at once.',
    '',
    ...capped([...groups.values()], LIMITS.items, (g) => `- ${code(g.location)}: ${g.old} → ${g.new} for ${ranges(g.years)}`),
  ];
}

function workingDaySection(diff: DataDiff): string[] {
  if (!diff.working_days.length) return [];
  return [
    '### Working days outside the workweek',
    '',
    ...capped(diff.working_days, LIMITS.items, (w) => `- ${code(w.location)} ${w.date}: ${w.kind} (${md(w.name)})`),
  ];
}

function otherSection(diff: DataDiff): string[] {
  if (!diff.other_files.length) return [];
  const folders = new Map<string, number>();
  for (const p of diff.other_files) {
    const folder = p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : p;
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
  }
  return ['### Other files', '', ...capped([...folders], LIMITS.items, ([f, n]) => `- ${code(f)}${f.endsWith('/') ? `: ${n} file${n === 1 ? '' : 's'}` : ''}`)];
}

/** The changelog as Markdown, basis changes and warnings first; "No data changes." when no file differs. */
export function renderMarkdown(diff: DataDiff): string {
  const sources = diff.sources.map((s) => `${s.name} ${s.old ?? '(none)'} → ${s.new ?? '(none)'}`).join(', ');
  if (!hasChanges(diff)) {
    return ['No data changes.', '', `Dataset version ${diff.new_version}${sources ? `; sources changed without changing any file: ${sources}` : ''}.`, ''].join('\n');
  }
  const f = diff.files;
  const head = [
    '## Data changes',
    '',
    `- Dataset version: ${code(diff.old_version)} → ${code(diff.new_version)}`,
    `- Sources: ${sources ? md(sources) : 'unchanged'}`,
    `- Files: ${f.changed} changed, ${f.added} added, ${f.removed} removed, ${f.unchanged} unchanged`,
  ];
  const sections = [
    basisSection(diff),
    warningSection(diff),
    holidaySection(diff),
    workingDaySection(diff),
    locationSection(diff),
    zoneSection(diff),
    recordSection('Travel', 'Destinations', diff.travel, aliasLines('Region codes', diff.travel.regions)),
    recordSection('Countries', 'Countries', diff.countries),
    otherSection(diff),
  ].filter((s) => s.length);
  let text = [...head, ...sections.flatMap((s) => ['', ...s])].join('\n') + '\n';
  if (text.length > LIMITS.chars) text = `${text.slice(0, LIMITS.chars)}\n\n… (truncated; run \`npm run diff-data -- OLD NEW --json\` for everything)\n`;
  return text;
}
