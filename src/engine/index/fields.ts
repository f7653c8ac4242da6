// Field paths of documents: the dotted view of nested objects (documents.md §3) and
// the selection of fields for output.
import { setKey } from '../json.ts';

/** A document's field paths (parents included) and its own keys (what `fieldDistribution` counts). */
export interface DocumentFields {
  paths: readonly string[];
  /** the document's top-level keys; the very array `paths` is when no value is an object */
  keys: readonly string[];
}

/** Every field path of a document, parents included: {a:{b:1}} → a, a.b. Arrays of objects are walked. */
export function fieldPaths(doc: Record<string, unknown>): readonly string[] {
  return documentFields(doc).paths;
}

/** The field paths of a document (as `fieldPaths`) and its top-level keys. */
export function documentFields(doc: Record<string, unknown>): DocumentFields {
  const keys = Object.keys(doc);
  for (const k of keys) {
    const v = doc[k];
    if ((v !== null && typeof v === 'object') || k.includes('.')) {
      const walk = { out: [] as string[], mayRepeat: false };
      collectPaths(doc, walk, '');
      // a path can only repeat through arrays of objects or literal dotted keys ({"a.b":1,"a":{"b":2}})
      return { paths: walk.mayRepeat ? [...new Set(walk.out)] : walk.out, keys };
    }
  }
  return { paths: keys, keys };
}

/** `fieldDistribution` counts a document's top-level keys, `_vectors` aside (Meilisearch 1.50). */
export function countsInDistribution(key: string): boolean {
  return key !== '_vectors';
}

interface Walk {
  out: string[];
  mayRepeat: boolean;
}

function collectPaths(doc: Record<string, unknown>, walk: Walk, prefix: string): void {
  for (const key of Object.keys(doc)) {
    if (key.includes('.')) walk.mayRepeat = true;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    walk.out.push(path);
    collectNested(doc[key], path, walk);
  }
}

function collectNested(value: unknown, path: string, walk: Walk): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item !== null && typeof item === 'object') {
        walk.mayRepeat = true;
        collectNested(item, path, walk);
      }
    }
    return;
  }
  collectPaths(value as Record<string, unknown>, walk, path);
}

/**
 * Keeps only the selected fields of a document: a selected parent keeps all its children,
 * a selected child keeps a pruned copy of its parents. Output keys follow `order` (the index's
 * field order) then the document's own order.
 */
export function selectFields(doc: Record<string, unknown>, fields: readonly string[], order?: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = order ? orderedKeys(doc, order) : Object.keys(doc);
  for (const key of keys) {
    const value = pick(doc[key], key, fields);
    if (value !== undefined) setKey(out, key, value);
  }
  return out;
}

function orderedKeys(doc: Record<string, unknown>, order: readonly string[]): string[] {
  const seen = new Set<string>();
  const keys: string[] = [];
  for (const k of order) if (Object.prototype.hasOwnProperty.call(doc, k) && !seen.has(k)) (seen.add(k), keys.push(k));
  for (const k of Object.keys(doc)) if (!seen.has(k)) (seen.add(k), keys.push(k));
  return keys;
}

function pick(value: unknown, path: string, fields: readonly string[]): unknown {
  let descend = false;
  for (const f of fields) {
    if (f === path || f === '*') return value;
    if (f.startsWith(path + '.')) descend = true;
  }
  if (!descend || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    const items = value
      .map((item) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? pickObject(item as Record<string, unknown>, path, fields) : undefined))
      .filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  return pickObject(value as Record<string, unknown>, path, fields);
}

function pickObject(obj: Record<string, unknown>, path: string, fields: readonly string[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const key of Object.keys(obj)) {
    const v = pick(obj[key], `${path}.${key}`, fields);
    if (v !== undefined) {
      setKey(out, key, v);
      any = true;
    }
  }
  return any ? out : undefined;
}
