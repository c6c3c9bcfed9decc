import { join } from 'node:path';
import { createApp } from '../server/app.js';
import { DatasetStore } from '../server/store.js';
import { TimezoneStore } from '../server/timezone-store.js';

export const DATA_DIR = join(import.meta.dirname, '..', 'dist-data');

let store: DatasetStore | undefined;
export function sharedStore(): DatasetStore {
  store ??= new DatasetStore(DATA_DIR);
  return store;
}

let timezones: TimezoneStore | undefined;
export function sharedTimezones(): TimezoneStore {
  timezones ??= new TimezoneStore(DATA_DIR);
  return timezones;
}

/** An in-process app over the built dataset with the clock frozen at `now`. */
export function appAt(now = new Date('2026-11-21T12:00:00Z')) {
  return createApp({ store: sharedStore(), timezones: sharedTimezones(), now: () => now });
}

export async function getJson(app: ReturnType<typeof appAt>, path: string) {
  const res = await app.request(path);
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}
