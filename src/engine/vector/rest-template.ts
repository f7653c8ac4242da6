// The `request` and `response` templates of REST embedders (vectors-embedders.md §2.2): JSON values
// in which the string "{{text}}" marks where a text goes, "{{..}}" (second item of an array whose
// first item holds the text) repeats that item once per text of a batch, and "{{embedding}}" marks
// where the response holds an embedding. OpenAI and Ollama embedders are REST embedders with fixed
// templates. Errors carry Meilisearch's wording (without its `Error while generating embeddings:
// user error: ` prefix, which the caller adds).

const TEXT = '{{text}}';
/** what `request` holds instead of `{{text}}` when the embedder uses fragments (§2.4) */
export const FRAGMENT = '{{fragment}}';
const REPEAT = '{{..}}';
const EMBEDDING = '{{embedding}}';

export class RestTemplateError extends Error {
  override name = 'RestTemplateError';
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Found {
  path: string;
  /** the repeated array's path and the marker's position in it */
  inRepeat: boolean;
}

/** Paths of the `marker` strings of `value` (`request.input[0]`, `response.data`). */
function find(value: Json, marker: string, path: string, out: string[]): string[] {
  if (value === marker) out.push(path);
  else if (Array.isArray(value)) value.forEach((v, i) => find(v, marker, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) find(v, marker, `${path}.${k}`, out);
  return out;
}

/** The one repeat marker of a template (null: none), checked where it stands. */
function repeatOf(root: Json, name: string, inner: string): { arrayPath: string } | null {
  const found = find(root, REPEAT, name, []);
  if (found.length === 0) return null;
  // each marker where the walk meets it: its place, then whether one came before
  let first: string | null = null;
  for (const path of found) {
    const m = /^(.*)\[(\d+)\]$/.exec(path);
    if (m === null) throw new RestTemplateError(`in \`${path}\`: "{{..}}" appears outside of an array`);
    if (m[2] !== '1') throw new RestTemplateError(`in \`${m[1]}\`: "{{..}}" expected at position #1, but found at position #${m[2]}`);
    if (first !== null) {
      const outer = /^(.*)\[(\d+)\]$/.exec(first)![1]!;
      if (m[1]!.startsWith(`${outer}[0]`)) throw new RestTemplateError(`in \`${outer}\`: "{{..}}" appears nested inside of a value that is itself repeated`);
      if (outer.startsWith(`${m[1]}[0]`)) throw new RestTemplateError(`in \`${m[1]}\`: "{{..}}" appears nested inside of a value that is itself repeated`);
      throw new RestTemplateError(`in \`${m[1]}\`: Found "{{..}}", but it was already present in \`${outer}\``);
    }
    first = path;
  }
  const m = /^(.*)\[(\d+)\]$/.exec(first!)!;
  const array = at(root, m[1]!, name) as Json[];
  if (find(array[0] ?? null, inner, `${m[1]}[0]`, []).length === 0) {
    throw new RestTemplateError(`in \`${m[1]}[0]\`: Expected "${inner}" inside of the repeated value`);
  }
  return { arrayPath: m[1]! };
}

function at(root: Json, path: string, name: string): Json {
  let v: Json = root;
  for (const step of path.slice(name.length).match(/\.[^.[]+|\[\d+\]/g) ?? []) {
    v = step.startsWith('[') ? (v as Json[])[Number(step.slice(1, -1))]! : (v as Record<string, Json>)[step.slice(1)]!;
  }
  return v;
}

/** Replaces the value at `path` (relative to `name`) in a deep copy. */
function replaced(root: Json, path: string, name: string, value: (old: Json) => Json): Json {
  const steps = path.slice(name.length).match(/\.[^.[]+|\[\d+\]/g) ?? [];
  const go = (v: Json, i: number): Json => {
    if (i === steps.length) return value(v);
    const step = steps[i]!;
    if (step.startsWith('[')) {
      const copy = [...(v as Json[])];
      const k = Number(step.slice(1, -1));
      copy[k] = go(copy[k]!, i + 1);
      return copy;
    }
    const k = step.slice(1);
    return { ...(v as Record<string, Json>), [k]: go((v as Record<string, Json>)[k]!, i + 1) };
  };
  return go(root, 0);
}

export class RequestTemplate {
  readonly #template: Json;
  readonly #repeat: { arrayPath: string } | null;
  readonly #textPath: string;

  /** `placeholder`: `{{text}}`, or `{{fragment}}` for an embedder with fragments */
  constructor(template: unknown, placeholder: typeof TEXT | typeof FRAGMENT = TEXT) {
    this.#template = template as Json;
    // the repeat marker is checked first (Meilisearch 1.50 reports a repeated item without the
    // placeholder before a missing placeholder)
    this.#repeat = repeatOf(this.#template, 'request', placeholder);
    const texts = find(this.#template, placeholder, 'request', []);
    if (texts.length === 0) throw new RestTemplateError(`in \`request\`: "${placeholder}" not found`);
    if (texts.length > 1) {
      const repeated = this.#repeat !== null && texts[0]!.startsWith(`${this.#repeat.arrayPath}[0]`);
      throw new RestTemplateError(`in \`${texts[1]}\`: Found "${placeholder}", but it was already present in \`${texts[0]}\`${repeated ? ' (repeated)' : ''}`);
    }
    this.#textPath = texts[0]!;
  }

  /** Texts sent in one request: 10 when the template repeats, else 1. */
  get batchSize(): number {
    return this.#repeat === null ? 1 : 10;
  }

  get batched(): boolean {
    return this.#repeat !== null;
  }

  /** The body for `texts` (at most `batchSize`): strings, or the JSON values of rendered fragments. */
  render(texts: readonly unknown[]): unknown {
    if (this.#repeat === null) return replaced(this.#template, this.#textPath, 'request', () => (texts[0] ?? '') as Json);
    const { arrayPath } = this.#repeat;
    return replaced(this.#template, arrayPath, 'request', (array) => {
      const item = (array as Json[])[0]!;
      const inner = this.#textPath.slice(`${arrayPath}[0]`.length);
      return texts.map((t) => replaced(item, `item${inner}`, 'item', () => t as Json));
    });
  }
}

export class ResponseTemplate {
  readonly #template: Json;
  readonly #repeat: { arrayPath: string } | null;
  readonly #embeddingPath: string;

  constructor(template: unknown, request: RequestTemplate) {
    this.#template = template as Json;
    const found = find(this.#template, EMBEDDING, 'response', []);
    if (found.length === 0) throw new RestTemplateError(`in \`response\`: "{{embedding}}" not found`);
    if (found.length > 1) throw new RestTemplateError(`in \`${found[1]}\`: Found "{{embedding}}", but it was already present in \`${found[0]}\``);
    this.#embeddingPath = found[0]!;
    this.#repeat = repeatOf(this.#template, 'response', EMBEDDING);
    if (this.#repeat !== null && !request.batched) {
      throw new RestTemplateError('in `response`: `response` has multiple embeddings, but `request` has only one text to embed');
    }
    if (this.#repeat === null && request.batched) {
      throw new RestTemplateError('in `response`: `response` has a single embedding, but `request` has multiple texts to embed');
    }
  }

  /** The embeddings a response body holds, in order; throws when it does not have the template's shape. */
  extract(body: unknown): number[][] {
    if (this.#repeat === null) return [this.#vector(dig(body, this.#embeddingPath.slice('response'.length), 'response', 'a single "{{embedding}}"'))];
    const { arrayPath } = this.#repeat;
    const items = dig(body, arrayPath.slice('response'.length), 'response', 'the array of "{{embedding}}"s');
    if (!Array.isArray(items)) throw new RestTemplateError(`in \`${arrayPath}\`, while extracting the array of "{{embedding}}"s, configuration expects an array, which is not in response`);
    const inner = this.#embeddingPath.slice(`${arrayPath}[0]`.length);
    return items.map((item) => this.#vector(dig(item, inner, `${arrayPath}[0]`, 'a single "{{embedding}}"')));
  }

  #vector(value: unknown): number[] {
    if (!Array.isArray(value) || !value.every((x) => typeof x === 'number')) {
      throw new RestTemplateError(`in \`${this.#embeddingPath}\`: expected an embedding (an array of numbers) in the response`);
    }
    return value as number[];
  }
}

/** The value at `path`; a missing key is reported as Meilisearch reports it (`what`: the value sought). */
function dig(value: unknown, path: string, where: string, what: string): unknown {
  let v = value;
  for (const step of path.match(/\.[^.[]+|\[\d+\]/g) ?? []) {
    if (step.startsWith('[')) {
      const i = Number(step.slice(1, -1));
      if (!Array.isArray(v) || i >= v.length) throw new RestTemplateError(`in \`${where}\`, while extracting ${what}, configuration expects an array with an item at position ${i}, which is missing in response`);
      v = v[i];
      continue;
    }
    const key = step.slice(1);
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, key)) {
      throw new RestTemplateError(`in \`${where}\`, while extracting ${what}, configuration expects key "${key}", which is missing in response`);
    }
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
