/**
 * The keys CLI: `npm run keys -- <command> [options]`, `--help` on every command.
 *   create --plan <plan> --name "<who>" [--quiet]   prints a new key once (--quiet: the key alone, for $(…))
 *   list                                            names, plans, dates and hash prefixes, never keys
 *   revoke <hash-prefix>                            removes a key
 * The file is API_KEYS_FILE (default data/api-keys.json) or --file. It is
 * rewritten atomically (a temporary file in the same folder, flushed, then
 * renamed), so a running server never reads half of it; a file that is not a
 * valid keys file is refused, never overwritten (that would drop every key).
 * Every failure is one line on stderr and exit status 2, never a stack trace
 * (`--help` included).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createKey, defaultKeysFile, readKeys, revokeKey, type KeyRecord } from '../server/access/keys.js';
import { PAID_PLANS } from '../server/access/plans.js';
import { redactKeys } from '../server/errors.js';

const PLANS = ['free', ...PAID_PLANS] as const;
const RUN = 'npm run keys --';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  /** One line for the command list. */
  summary: string;
  /** What follows `npm run keys -- ` in the usage line. */
  usage: string;
  /** Its own options, besides --file and --help; each with the text --help shows. */
  options: Options;
  optionHelp: [string, string][];
  /** Positional arguments after the command name: [min, max]. */
  positionals: [number, number];
  run: (file: string, values: Values, positionals: string[]) => void;
}

/** A usage or input error: printed as one line, exit 2. */
class UsageError extends Error {}

const COMMON: Options = { file: { type: 'string' }, help: { type: 'boolean', short: 'h' } };
const COMMON_HELP: [string, string][] = [
  ['--file <path>', `the keys file (default: API_KEYS_FILE, else data/api-keys.json; now ${defaultKeysFile()})`],
  ['--help, -h', 'this text'],
];

const COMMANDS: Record<string, Command> = {
  create: {
    summary: 'create a key of a plan and print it once',
    usage: `create --plan <${PLANS.join('|')}> --name "<who>" [--quiet] [--file <path>]`,
    options: { plan: { type: 'string' }, name: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } },
    optionHelp: [
      ['--plan <plan>', `${PLANS.join(', ')} (required)`],
      ['--name "<who>"', 'who the key is for, shown by list (required)'],
      ['--quiet, -q', `print the key alone on one line: KEY=$(npm run -s keys -- create --plan free --name ci --quiet)`],
    ],
    positionals: [0, 0],
    run(file, values) {
      const plan = values.plan as string | undefined;
      if (!plan || !(PLANS as readonly string[]).includes(plan)) throw new UsageError(`create: --plan must be one of ${PLANS.join(', ')}${plan ? `, not "${plan}"` : ''}`);
      const name = (values.name as string | undefined)?.trim();
      if (!name) throw new UsageError('create: --name is required (who the key is for, e.g. --name "billing backend")');
      const { key, record } = createKey(file, plan as KeyRecord['plan'], name);
      if (values.quiet) return console.log(key);
      console.log(`created ${record.plan} key "${record.name}" (hash ${record.hash.slice(0, 12)}) in ${file}`);
      console.log('Store it now; it is not kept and cannot be shown again:');
      console.log(key);
    },
  },
  list: {
    summary: 'list the keys: hash prefix, plan, creation date and name (never the keys)',
    usage: 'list [--file <path>]',
    options: {},
    optionHelp: [],
    positionals: [0, 0],
    run(file) {
      const { keys } = readKeys(file);
      if (!keys.length) console.log(`no keys in ${file}`);
      for (const k of keys) console.log(`${k.hash.slice(0, 12)}  ${k.plan.padEnd(8)}  ${k.created}  ${k.name}`);
    },
  },
  revoke: {
    summary: 'remove a key by the start of its hash (see list); running servers drop it within a second',
    usage: 'revoke <hash-prefix> [--file <path>]',
    options: {},
    optionHelp: [['<hash-prefix>', 'at least 8 hex digits of the key hash, as list shows them']],
    positionals: [1, 1],
    run(file, _values, [prefix]) {
      const k = revokeKey(file, prefix!);
      console.log(`revoked ${k.plan} key "${k.name}" (hash ${k.hash.slice(0, 12)}); running servers drop it within a second`);
    },
  },
};

function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`).join('\n');
}

function mainHelp(): string {
  const commands: [string, string][] = [...Object.entries(COMMANDS).map(([name, c]): [string, string] => [name, c.summary]), ['help [command]', 'this text, or a command\'s']];
  return `usage: ${RUN} <command> [options]

Manages the API keys file the server reads. Only each key's SHA-256 is stored; a
running server picks up a change at once for a new key, within a second for a revoke.

commands:
${table(commands)}

options of every command:
${table(COMMON_HELP)}

${RUN} <command> --help shows a command's options.
`;
}

function commandHelp(name: string): string {
  const c = COMMANDS[name]!;
  return `usage: ${RUN} ${c.usage}

${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.

options:
${table([...c.optionHelp, ...COMMON_HELP])}
`;
}

const unknownCommand = (name: string) => new UsageError(`unknown command "${name}": use ${Object.keys(COMMANDS).join(', ')} or help (${RUN} --help)`);

/** node:util's parse errors (several sentences, on several lines) as one line naming the command and its options. */
function parseError(err: unknown, name: string): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  const first = (err instanceof Error ? err.message : String(err)).split(/\.\s/)[0]!.replace(/\.$/, '');
  const options = Object.keys({ ...COMMANDS[name]!.options, ...COMMON }).map((o) => `--${o}`);
  const option = /'(-[^' ]+)/.exec(first)?.[1];
  let text = first.charAt(0).toLowerCase() + first.slice(1);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') text += `; ${name} takes ${options.join(', ')}`;
  else if (/argument missing/.test(first)) text = `option ${option} needs a value`;
  else if (/ambiguous/.test(first)) text = `option ${option} needs a value, not the next option (a value that starts with "-" is written ${option}=-…)`;
  return new UsageError(`${name}: ${text} (see ${RUN} ${name} --help)`);
}

/** Runs the CLI on `args`: prints help or does the command; throws a one-line error. */
function main(args: string[]): void {
  // A first pass that accepts anything, to find the command wherever the options are.
  const every: Options = { ...COMMON, ...Object.assign({}, ...Object.values(COMMANDS).map((c) => c.options)) };
  const { tokens } = parseArgs({ args, options: every, strict: false, allowPositionals: true, tokens: true });
  const [first, second] = tokens.filter((t) => t.kind === 'positional');
  const wantsHelp = tokens.some((t) => t.kind === 'option' && t.name === 'help');
  const name = first?.kind === 'positional' ? first.value : undefined;
  const rest = first?.kind === 'positional' ? args.filter((_, i) => i !== first.index) : args;

  if (name === 'help') {
    const topic = second?.kind === 'positional' ? second.value : undefined;
    if (topic !== undefined && !COMMANDS[topic]) throw unknownCommand(topic);
    return void process.stdout.write(topic ? commandHelp(topic) : mainHelp());
  }
  if (name === undefined) {
    if (wantsHelp) return void process.stdout.write(mainHelp());
    throw new UsageError(`no command given: use ${Object.keys(COMMANDS).join(', ')} (${RUN} --help)`);
  }
  const command = COMMANDS[name];
  if (!command) throw unknownCommand(name);
  if (wantsHelp) return void process.stdout.write(commandHelp(name));

  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: rest, options: { ...COMMON, ...command.options }, strict: true, allowPositionals: true }) as { values: Values; positionals: string[] });
  } catch (err) {
    throw parseError(err, name);
  }
  const [min, max] = command.positionals;
  if (positionals.length < min) throw new UsageError(`${name}: missing ${command.optionHelp[0]![0]} (usage: ${RUN} ${command.usage})`);
  if (positionals.length > max) throw new UsageError(`${name}: unexpected argument "${positionals[max]}" (usage: ${RUN} ${command.usage})`);
  try {
    command.run((values.file as string | undefined) ?? defaultKeysFile(), values, positionals);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

try {
  main(process.argv.slice(2));
} catch (err) {
  // A bad keys file, an unknown prefix, a usage error: the reason is the whole message, on one
  // line; a key typed in the wrong place is not echoed into a terminal or CI log.
  const message = err instanceof Error ? err.message : String(err);
  console.error(redactKeys(message.split('\n')[0]!));
  process.exit(2);
}
