// The `searchRules` of a tenant token (auth-keys.md §7): which indexes it opens and the filter it
// forces on each. Read as Meilisearch's untagged enum, first form that fits:
//
//   ["movies", "sa*", "*"]                                    list of index uid patterns
//   {"movies": {"filter": "user = 1"}, "sa*": null, "*": {}}   pattern → rule (or null)
//
// Patterns are not validated (one that is no valid uid simply never matches exactly). A rule is
// an object whose `filter` (any JSON, null = none) is kept and other keys ignored, or — serde's
// struct-from-sequence — a one-element array holding the filter.
import type { Json } from '../engine/json.ts';
import { matchesIndexPattern } from './index-pattern.ts';
import { ContentMap, contentToJson, type Content } from './serde-json.ts';

export class SearchRules {
  /** pattern → forced filter (null: none); a Map keeps the last of duplicate object keys */
  readonly #rules: ReadonlyMap<string, Json | null>;
  /** The patterns, for error messages. */
  readonly patterns: readonly string[];
  /** Whether `*` is one of the patterns. */
  readonly allIndexes: boolean;

  private constructor(rules: Map<string, Json | null>) {
    this.#rules = rules;
    this.patterns = Object.freeze([...rules.keys()]);
    this.allIndexes = rules.has('*');
  }

  /** The rules from buffered JSON, or null when neither form fits. */
  static fromContent(content: Content): SearchRules | null {
    const rules = new Map<string, Json | null>();
    if (Array.isArray(content)) {
      for (const pattern of content) {
        if (typeof pattern !== 'string') return null;
        rules.set(pattern, null);
      }
      return new SearchRules(rules);
    }
    if (!(content instanceof ContentMap)) return null;
    for (const [pattern, value] of content.entries) {
      const filter = ruleFilter(value);
      if (filter === undefined) return null;
      rules.set(pattern, filter);
    }
    return new SearchRules(rules);
  }

  /** Whether a pattern matches index `uid`. */
  allows(uid: string): boolean {
    for (const pattern of this.#rules.keys()) if (matchesIndexPattern(pattern, uid)) return true;
    return false;
  }

  /**
   * The filter forced on index `uid`: the rule of the most specific matching pattern (an exact
   * uid first, then the longest prefix), null when it has none or nothing matches.
   */
  filterFor(uid: string): Json | null {
    let best: string | null = null;
    for (const pattern of this.#rules.keys()) {
      if (!matchesIndexPattern(pattern, uid)) continue;
      if (best === null || specificity(pattern) > specificity(best)) best = pattern;
    }
    return best === null ? null : this.#rules.get(best)!;
  }
}

/** Exact patterns rank above every prefix pattern; among prefixes, longer wins. */
function specificity(pattern: string): number {
  return (pattern.endsWith('*') ? 0 : 1 << 30) + pattern.length;
}

/** `Option<IndexSearchRules>`: the filter it forces (null for none), undefined when it does not fit. */
function ruleFilter(value: Content): Json | null | undefined {
  if (value === null) return null;
  if (value instanceof ContentMap) {
    const filters = value.entries.filter(([key]) => key === 'filter');
    if (filters.length > 1) return undefined; // duplicate field
    return filters.length === 0 ? null : contentToJson(filters[0]![1]);
  }
  if (Array.isArray(value)) return value.length === 1 ? contentToJson(value[0]!) : undefined;
  return undefined;
}
