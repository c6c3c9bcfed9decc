/**
 * Real examples for the OpenAPI description. Each operation's example
 * requests are answered through the app itself at start, so /docs shows what
 * a caller gets from the dataset being served, not placeholders such as
 * `"start": "2019-08-24"`.
 */

/** One example request and the 200 the app answered to it. */
export interface ExampleAnswer {
  media: string;
  /** The body: parsed JSON for application/json, else the text. */
  value: unknown;
  /** Why the value differs from the body, when it is shortened. */
  note?: string;
}

/** Answers by request target (path and query). */
export type Examples = Map<string, ExampleAnswer>;

/** JSON answers larger than this are shortened in the description (the location list is 73 kB). */
export const EXAMPLE_MAX_BYTES = 8 * 1024;
/** Items kept of each longer array in a shortened example. */
export const EXAMPLE_ITEMS = 3;

/** The value with every array of more than EXAMPLE_ITEMS items cut to its first EXAMPLE_ITEMS. */
function shorten(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, EXAMPLE_ITEMS).map(shorten);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
}

/**
 * Answers every target through `fetch` (the app, without the access gate).
 * A target that does not answer 200 is logged and left out: a wrong example
 * must not stop the API (test/openapi.test.ts fails on it instead).
 */
export async function answerExamples(fetch: (req: Request) => Response | Promise<Response>, targets: readonly string[]): Promise<Examples> {
  const examples: Examples = new Map();
  for (const target of targets) {
    const res = await fetch(new Request(`http://localhost${target}`));
    const text = await res.text();
    if (res.status !== 200) {
      console.error(`openapi: the example GET ${target} answered ${res.status}, not 200; it is left out of the description`);
      continue;
    }
    const media = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    const answer: ExampleAnswer = { media, value: text };
    if (media === 'application/json') {
      answer.value = JSON.parse(text);
      const bytes = new TextEncoder().encode(text).byteLength;
      if (bytes > EXAMPLE_MAX_BYTES) {
        answer.value = shorten(answer.value);
        answer.note = `Shortened for this page: each array keeps its first ${EXAMPLE_ITEMS} items (the answer has ${bytes.toLocaleString('en')} bytes).`;
      }
    }
    examples.set(target, answer);
  }
  return examples;
}

/** Each path parameter of `template` (`/v1/countries/{code}`) as `target` gives it, decoded. */
function pathValues(template: string, target: string): Record<string, string> {
  const names: string[] = [];
  const re = new RegExp(`^${template.replace(/\{(\w+)\}/g, (_m, name: string) => (names.push(name), '([^/]+)'))}$`);
  const match = re.exec(target.split('?')[0]);
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match?.[i + 1] ?? '')]).filter(([, v]) => v !== ''));
}

/**
 * The example of a parameter: its value in the first target that gives it,
 * as a number where the schema says so.
 */
export function parameterExample(parameter: { name: string; in: string; schema?: { type?: unknown } }, template: string, targets: readonly string[]): unknown {
  for (const target of targets) {
    const raw = parameter.in === 'path' ? pathValues(template, target)[parameter.name] : new URLSearchParams(target.split('?')[1] ?? '').get(parameter.name) ?? undefined;
    if (raw === undefined) continue;
    const type = parameter.schema?.type;
    return type === 'integer' || type === 'number' ? Number(raw) : raw;
  }
  return undefined;
}
