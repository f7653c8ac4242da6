// An in-memory FacetValues over JSON documents (document i has internal id i), for the tests of
// facet distributions and facet search; the real reader is engine/facet on LMDB. Every field is
// faceted: nested object keys give dotted paths, array items are values of the array's field,
// numbers are numbers, booleans the strings "true"/"false", non-empty strings are kept
// normalized (trimmed, NFKD, lowercase) with the spelling of the first document holding them.
// Optional reader features can be left out to test the fallbacks.
import { Bitmap } from '../../engine/bitmap/index.ts';
import { compareBytes, type FacetValues } from './facets-values.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface FieldValues {
  numbers: Map<number, Bitmap>;
  strings: Map<string, { original: string; docids: Bitmap }>;
  docNumbers: Map<number, number[]>;
  docStrings: Map<number, string[]>;
  /** each document's own spelling of its strings */
  docOriginals: Map<number, string[]>;
}

export interface MemoryFacetOptions {
  /** provide `stringsWithPrefix` (default true) */
  withPrefix?: boolean;
  /** provide `docOriginals` (default true) */
  withOriginals?: boolean;
  /** honour `within` in `numbers` / `strings` (default true) */
  withWithin?: boolean;
}

const normalize = (s: string) => s.trim().normalize('NFKD').toLowerCase();

export class MemoryFacetValues implements FacetValues {
  readonly #fields = new Map<string, number>();
  readonly #values: FieldValues[] = [];
  /** reads made, to tell which algorithm ran: per-document reads and value walks */
  readonly reads = { documents: 0, walks: 0 };
  readonly stringsWithPrefix?: FacetValues['stringsWithPrefix'];
  readonly docOriginals?: FacetValues['docOriginals'];
  readonly #within: boolean;

  constructor(docs: readonly object[], opts: MemoryFacetOptions = {}) {
    docs.forEach((doc, id) => this.#walkObject(doc as { [key: string]: Json }, '', id));
    this.#within = opts.withWithin !== false;
    if (opts.withOriginals !== false) {
      this.docOriginals = (fid, docid) => {
        this.reads.documents++;
        return this.#values[fid]!.docOriginals.get(docid) ?? [];
      };
    }
    if (opts.withPrefix !== false) {
      this.stringsWithPrefix = (fid, prefix) =>
        [...this.#values[fid]!.strings]
          .filter(([n]) => n.startsWith(prefix))
          .sort((a, b) => compareBytes(a[0], b[0]))
          .map(([n, { original, docids }]) => [n, original, docids]);
    }
  }

  #walkObject(obj: { [key: string]: Json }, base: string, id: number): void {
    for (const [key, value] of Object.entries(obj)) this.#walk(base === '' ? key : `${base}.${key}`, value, id);
  }

  #walk(path: string, value: Json, id: number): void {
    if (Array.isArray(value)) {
      for (const item of value) this.#walk(path, item, id);
    } else if (value !== null && typeof value === 'object') {
      this.#field(path);
      this.#walkObject(value, path, id);
    } else if (typeof value === 'number') {
      const f = this.#field(path);
      bitmapOf(f.numbers, value).add(id);
      pushOnce(f.docNumbers, id, value);
    } else if (typeof value === 'boolean' || (typeof value === 'string' && value !== '')) {
      const f = this.#field(path);
      const original = String(value);
      const n = normalize(original);
      let entry = f.strings.get(n);
      if (entry === undefined) f.strings.set(n, (entry = { original, docids: new Bitmap() }));
      entry.docids.add(id);
      if (pushOnce(f.docStrings, id, n)) pushOnce(f.docOriginals, id, original, true);
    }
  }

  #field(path: string): FieldValues {
    let fid = this.#fields.get(path);
    if (fid === undefined) {
      fid = this.#values.length;
      this.#fields.set(path, fid);
      this.#values.push({ numbers: new Map(), strings: new Map(), docNumbers: new Map(), docStrings: new Map(), docOriginals: new Map() });
    }
    return this.#values[fid]!;
  }

  fieldId(path: string): number | undefined {
    return this.#fields.get(path);
  }

  *numbers(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[number, Bitmap]> {
    this.reads.walks++;
    const sorted = [...this.#values[fid]!.numbers].sort((a, b) => a[0] - b[0]);
    if (order === 'desc') sorted.reverse();
    for (const [n, docids] of sorted) {
      const kept = this.#restrict(docids, within);
      if (kept !== null) yield [n, kept];
    }
  }

  *strings(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[string, string, Bitmap]> {
    this.reads.walks++;
    const sorted = [...this.#values[fid]!.strings].sort((a, b) => compareBytes(a[0], b[0]));
    if (order === 'desc') sorted.reverse();
    for (const [n, { original, docids }] of sorted) {
      const kept = this.#restrict(docids, within);
      if (kept !== null) yield [n, original, kept];
    }
  }

  /** `within` as the real reader applies it: values none of those documents hold are skipped. */
  #restrict(docids: Bitmap, within: Bitmap | undefined): Bitmap | null {
    if (within === undefined || !this.#within) return docids;
    const kept = docids.clone().andInPlace(within);
    return kept.size === 0 ? null : kept;
  }

  docNumbers(fid: number, docid: number): readonly number[] {
    this.reads.documents++;
    return this.#values[fid]!.docNumbers.get(docid) ?? [];
  }

  docStrings(fid: number, docid: number): readonly string[] {
    this.reads.documents++;
    return this.#values[fid]!.docStrings.get(docid) ?? [];
  }

  stringEquals(fid: number, normalized: string): Bitmap {
    return this.#values[fid]!.strings.get(normalized)?.docids ?? new Bitmap();
  }
}

function bitmapOf<K>(map: Map<K, Bitmap>, key: K): Bitmap {
  let b = map.get(key);
  if (b === undefined) map.set(key, (b = new Bitmap()));
  return b;
}

/** Appends `value` to the list of `id` unless there already (`always`: even then); tells whether it was appended. */
function pushOnce<T>(map: Map<number, T[]>, id: number, value: T, always = false): boolean {
  const list = map.get(id);
  if (list === undefined) map.set(id, [value]);
  else if (always || !list.includes(value)) list.push(value);
  else return false;
  return true;
}
