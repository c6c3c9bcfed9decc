/**
 * `npm run keys -- create --plan pro --name "billing backend"`: prints a new key once.
 * `npm run keys -- list`: names, plans, dates and hash prefixes, never keys.
 * `npm run keys -- revoke <hash-prefix>`: removes a key.
 * The file is API_KEYS_FILE (default data/api-keys.json) or --file. It is
 * rewritten atomically (a temporary file in the same folder, flushed, then
 * renamed), so a running server never reads half of it; a file that is not a
 * valid keys file is refused, never overwritten (that would drop every key).
 */
import { parseArgs } from 'node:util';
import { createKey, defaultKeysFile, readKeys, revokeKey } from '../server/access/keys.js';
import { PAID_PLANS } from '../server/access/plans.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { plan: { type: 'string' }, name: { type: 'string' }, file: { type: 'string' } },
});
const file = values.file ?? defaultKeysFile();
const [command, arg] = positionals;
const plans = ['free', ...PAID_PLANS];

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** Runs a command; its failures (a bad keys file, an unknown prefix) are one line, not a stack trace. */
function run(command: () => void): void {
  try {
    command();
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
}

switch (command) {
  case 'create': {
    if (!values.plan || !plans.includes(values.plan)) fail(`--plan must be one of ${plans.join(', ')}`);
    if (!values.name?.trim()) fail('--name is required (who the key is for)');
    const name = values.name.trim();
    run(() => {
      const { key, record } = createKey(file, values.plan as 'free', name);
      console.log(`created ${record.plan} key "${record.name}" (hash ${record.hash.slice(0, 12)}) in ${file}`);
      console.log('Store it now; it is not kept and cannot be shown again:');
      console.log(key);
    });
    break;
  }
  case 'list': {
    run(() => {
      const { keys } = readKeys(file);
      if (!keys.length) console.log(`no keys in ${file}`);
      for (const k of keys) console.log(`${k.hash.slice(0, 12)}  ${k.plan.padEnd(8)}  ${k.created}  ${k.name}`);
    });
    break;
  }
  case 'revoke': {
    run(() => {
      const k = revokeKey(file, arg ?? '');
      console.log(`revoked ${k.plan} key "${k.name}" (hash ${k.hash.slice(0, 12)}); running servers drop it within a second`);
    });
    break;
  }
  default:
    fail('usage: npm run keys -- create --plan <free|starter|pro|growth> --name "<who>" | list | revoke <hash-prefix>');
}
