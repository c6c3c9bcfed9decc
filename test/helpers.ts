import { join } from 'node:path';
import { createApp } from '../server/app.js';
import { DatasetStore } from '../server/store.js';

export const DATA_DIR = join(import.meta.dirname, '..', 'dist-data');

let store: DatasetStore | undefined;
export function sharedStore(): DatasetStore {
  store ??= new DatasetStore(DATA_DIR);
  return store;
}

/** An in-process app over the built dataset with the clock frozen at `now`. */
export function appAt(now = new Date('2026-11-21T12:00:00Z')) {
  return createApp({ store: sharedStore(), now: () => now });
}

export async function getJson(app: ReturnType<typeof appAt>, path: string) {
  const res = await app.request(path);
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}
