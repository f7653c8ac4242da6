// Ranking-rules compatibility of federated queries (multi-search.md §3.4): the results of two
// queries can only be merged if their rules produce comparable scores at every position.
//
//   index rankingRules + query (q, sort, matchingStrategy)
//     ─► canonical rules (placeholder: no relevancy rule; keyword: `words` first, duplicates
//        removed; `sort` replaced by the query's sort fields or removed)
//     ─► kinds, consecutive relevancy rules coalesced: [relevancy, asc sort, relevancy, ...]
//   two queries are incompatible when the kinds differ at some position of both sequences.
import { ApiError } from '../errors/index.ts';
import type { MatchingStrategy } from './query-types.ts';

type Kind = 'relevancy' | 'ascSort' | 'descSort' | 'ascGeo' | 'descGeo';

/** Where a rule of the canonical list comes from (indices into the canonical lists). */
type Source =
  | { type: 'criterion'; index: number }
  | { type: 'coalesced'; begin: number; end: number }
  | { type: 'sort'; criterion: number; sort: number };

interface Rule {
  kind: Kind;
  source: Source;
}

/** A query's rules after canonicalization, with the notes of what was changed. */
export interface CanonicalRules {
  /** canonical criteria (ranking rule names) */
  criteria: string[];
  /** canonical `sort` of the query, when the `sort` rule was kept */
  sort: string[] | null;
  notes: string[];
  rules: Rule[];
}

const RELEVANCY = new Set(['words', 'typo', 'proximity', 'attribute', 'attributeRank', 'wordPosition', 'exactness']);

/** `field:asc` / `field:desc` of a ranking rule or a sort entry; null for other rules. */
function ascDesc(rule: string): { field: string; asc: boolean } | null {
  const m = /^(.*):(asc|desc)$/.exec(rule);
  return m === null ? null : { field: m[1]!, asc: m[2] === 'asc' };
}

const criterionSource = (index: number): Source => ({ type: 'criterion', index });

/** The canonical rules of one query (`keyword`: a non-empty `q`, as Meilisearch decides it). */
export function canonicalRules(rankingRules: readonly string[], q: { keyword: boolean; sort: string[] | null; strategy: MatchingStrategy }): CanonicalRules {
  const criteria: string[] = [];
  const notes: Note[] = [];
  let sort: string[] | null = null;
  let sortAt: number | undefined;
  const sortedFields = new Map<string, Source>();
  // `words`: undefined = not seen, null = prepended, n = kept from position n
  let words: number | null | undefined;
  const seen = new Map<string, number>();
  const all = q.strategy === 'all';
  rankingRules.forEach((rule, i) => {
    const field = ascDesc(rule);
    if (field !== null) {
      const earlier = sortedFields.get(field.field);
      if (earlier !== undefined) notes.push({ type: 'duplicate', earlier, removed: criterionSource(i) });
      else {
        sortedFields.set(field.field, criterionSource(i));
        criteria.push(rule);
      }
    } else if (rule === 'sort') {
      if (sortAt !== undefined) notes.push({ type: 'duplicate', earlier: criterionSource(sortAt), removed: criterionSource(i) });
      else if (q.sort !== null) {
        sortAt = i;
        criteria.push(rule);
        sort = canonicalSort(q.sort, i, sortedFields, notes);
      } else notes.push({ type: 'removedSort', removed: criterionSource(i) });
    } else if (!q.keyword) {
      notes.push({ type: 'placeholder', removed: criterionSource(i) });
    } else if (rule === 'words') {
      if (all) return void notes.push({ type: 'removedWords', reason: 'all', removed: criterionSource(i) });
      if (words !== undefined) {
        if (words !== null) return void notes.push({ type: 'duplicate', earlier: criterionSource(words), removed: criterionSource(i) });
        // Meilisearch notes the removal but keeps the rule (no `continue` there)
        notes.push({ type: 'removedWords', reason: 'prepended', removed: criterionSource(i) });
      }
      words = i;
      criteria.push(rule);
    } else {
      if (!all && words === undefined) {
        notes.push({ type: 'prepended', at: criterionSource(i) });
        criteria.push('words');
        words = null;
      }
      const earlier = seen.get(rule);
      if (earlier !== undefined) notes.push({ type: 'duplicate', earlier: criterionSource(earlier), removed: criterionSource(i) });
      else {
        seen.set(rule, i);
        criteria.push(rule);
      }
    }
  });
  const named = { criteria: rankingRules, sort: q.sort };
  return { criteria, sort, notes: notes.map((n, i) => noteText(n, i + 1, named)), rules: coalesce(criteria, sort) };
}

function canonicalSort(sort: readonly string[], criterion: number, sortedFields: Map<string, Source>, notes: Note[]): string[] {
  const out: string[] = [];
  let geoAt: number | undefined;
  sort.forEach((entry, i) => {
    const source: Source = { type: 'sort', criterion, sort: i };
    if (entry.trimStart().startsWith('_geoPoint(')) {
      if (geoAt !== undefined) notes.push({ type: 'duplicate', earlier: { type: 'sort', criterion, sort: geoAt }, removed: source });
      else {
        geoAt = i;
        out.push(entry);
      }
      return;
    }
    const field = ascDesc(entry)?.field ?? entry;
    const earlier = sortedFields.get(field);
    if (earlier !== undefined) notes.push({ type: 'duplicate', earlier, removed: source });
    else {
      sortedFields.set(field, source);
      out.push(entry);
    }
  });
  return out;
}

function kindOf(rule: string): Kind {
  if (RELEVANCY.has(rule)) return 'relevancy';
  const f = ascDesc(rule);
  if (f === null) return 'relevancy';
  if (f.field === '_geo') return f.asc ? 'ascGeo' : 'descGeo';
  return f.asc ? 'ascSort' : 'descSort';
}

/** The canonical rules as kinds, consecutive relevancy rules merged into one. */
function coalesce(criteria: readonly string[], sort: readonly string[] | null): Rule[] {
  const flat: Rule[] = [];
  criteria.forEach((rule, i) => {
    if (rule !== 'sort') return void flat.push({ kind: kindOf(rule), source: criterionSource(i) });
    (sort ?? []).forEach((entry, j) => {
      const geo = entry.trimStart().startsWith('_geoPoint(');
      const asc = !entry.endsWith(':desc');
      const kind: Kind = geo ? (asc ? 'ascGeo' : 'descGeo') : asc ? 'ascSort' : 'descSort';
      flat.push({ kind, source: { type: 'sort', criterion: i, sort: j } });
    });
  });
  const out: Rule[] = [];
  for (const rule of flat) {
    const last = out[out.length - 1];
    if (last?.kind === 'relevancy' && rule.kind === 'relevancy' && rule.source.type === 'criterion') {
      const begin = last.source.type === 'criterion' ? last.source.index : last.source.type === 'coalesced' ? last.source.begin : rule.source.index;
      last.source = last.source.type === 'sort' ? rule.source : { type: 'coalesced', begin, end: rule.source.index };
    } else out.push({ ...rule });
  }
  return out;
}

/** The query whose rules later queries are checked against (the most constrained so far). */
export interface RulesReference {
  rules: CanonicalRules;
  queryIndex: number;
  indexUid: string;
}

/**
 * Checks `current` against the reference and returns the new reference; throws
 * `invalid_multi_search_query_ranking_rules` (message without the `.queries[i]` prefix).
 */
export function checkCompatible(previous: RulesReference | null, current: RulesReference): RulesReference {
  if (previous === null) return current;
  const a = previous.rules.rules;
  const b = current.rules.rules;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i]!.kind !== b[i]!.kind) throw incompatible(previous, a[i]!, current, b[i]!);
  }
  return a.length > b.length ? previous : current;
}

function incompatible(prev: RulesReference, prevRule: Rule, cur: RulesReference, curRule: Rule): ApiError {
  let msg = `The results of queries #${prev.queryIndex} and #${cur.queryIndex} are incompatible: \n`;
  msg += `  1. ${ruleText(prevRule, prev)}\n`;
  msg += `  2. ${ruleText(curRule, cur)}\n`;
  msg += `  - ${reason(prevRule.kind, curRule.kind)}\n`;
  for (const r of [prev, cur]) {
    if (r.rules.notes.length === 0) continue;
    msg += `  - note: The ranking rules of query #${r.queryIndex} were modified during canonicalization:\n${r.rules.notes.join('')}`;
  }
  return new ApiError('invalid_multi_search_query_ranking_rules', msg);
}

const KIND_TEXT: Record<Kind, string> = {
  relevancy: 'relevancy',
  ascSort: 'ascending sort',
  descSort: 'descending sort',
  ascGeo: 'ascending geo sort',
  descGeo: 'descending geo sort',
};

function ruleText(rule: Rule, r: RulesReference): string {
  const { criteria, sort } = r.rules;
  const q = r.queryIndex;
  const uid = r.indexUid;
  let where: string;
  let name: string | undefined;
  const s = rule.source;
  if (s.type === 'criterion') {
    where = `\`queries[${q}]\`, \`${uid}.rankingRules[${s.index}]\``;
    name = criteria[s.index];
  } else if (s.type === 'coalesced') {
    where = `\`queries[${q}]\`, \`${uid}.rankingRules[${s.begin}..=${s.end}]\``;
    const names = criteria.slice(s.begin, s.end + 1);
    name = names.length > 0 ? names.join(', ') : undefined;
  } else {
    where = `\`queries[${q}].sort[${s.sort}]\`, \`${uid}.rankingRules[${s.criterion}]\``;
    const entry = sort?.[s.sort];
    const field = entry === undefined || entry.trimStart().startsWith('_geoPoint(') ? null : ascDesc(entry);
    name = field === null ? undefined : `on field \`${field.field}\``;
  }
  return `${where}: ${KIND_TEXT[rule.kind]} rule(s) ${name ?? 'default'}`;
}

function reason(a: Kind, b: Kind): string {
  const group = (k: Kind) => (k === 'relevancy' ? 'relevancy' : k === 'ascSort' || k === 'descSort' ? 'sort' : 'geo');
  const [ga, gb] = [group(a), group(b)];
  if (ga === 'relevancy' || gb === 'relevancy') {
    return ga === 'geo' || gb === 'geo' ? 'cannot compare a relevancy rule with a geosort rule' : 'cannot compare a relevancy rule with a sort rule';
  }
  if (ga !== gb) return 'cannot compare a sort rule with a geosort rule';
  return ga === 'sort' ? 'cannot compare two sort rules in opposite directions' : 'cannot compare two geosort rules in opposite directions';
}

type Note =
  | { type: 'prepended'; at: Source }
  | { type: 'duplicate'; earlier: Source; removed: Source }
  | { type: 'removedWords'; reason: 'prepended' | 'all'; removed: Source }
  | { type: 'placeholder'; removed: Source }
  | { type: 'removedSort'; removed: Source };

interface Named {
  criteria: readonly string[];
  sort: readonly string[] | null;
}

/** Names and positions refer to the rules as configured and sent (not the canonical ones). */
function noteText(n: Note, i: number, named: Named): string {
  switch (n.type) {
    case 'prepended':
      return `    ${i}. Prepended rule \`words\` before first relevancy rule \`${sourceName(n.at, named)}\` at position ${position(n.at)}\n`;
    case 'duplicate':
      return `    ${i}. Removed duplicate rule \`${sourceName(n.earlier, named)}\` at position ${position(n.removed)} as it already appears at position ${position(n.earlier)}\n`;
    case 'removedWords': {
      const why = n.reason === 'all' ? '`query.matchingWords` is set to `all`' : 'it was previously prepended';
      return `    ${i}. Removed rule \`words\` at position ${position(n.removed)} because ${why}\n`;
    }
    case 'placeholder':
      return `    ${i}. Removed relevancy rule \`${sourceName(n.removed, named)}\` at position ${position(n.removed)} because the query is a placeholder search (\`q\`: "")\n`;
    case 'removedSort':
      // three spaces: as Meilisearch prints it
      return `   ${i}. Removed rule \`sort\` at position ${position(n.removed)} because \`query.sort\` is empty\n`;
  }
}

function sourceName(s: Source, named: Named): string {
  if (s.type === 'criterion') return named.criteria[s.index] ?? 'unknown';
  if (s.type === 'coalesced') return named.criteria.slice(s.begin, s.end + 1).join(', ');
  const entry = named.sort?.[s.sort];
  if (entry === undefined) return 'unknown';
  if (entry.trimStart().startsWith('_geoPoint(')) return entry.endsWith(':desc') ? '_geo(..):desc' : '_geo(..):asc';
  return entry;
}

function position(s: Source): string {
  if (s.type === 'criterion') return `#${s.index} in ranking rules`;
  if (s.type === 'coalesced') return `#${s.begin} to #${s.end} in ranking rules`;
  return `#${s.sort} in \`query.sort\` (as \`sort\` is #${s.criterion} in ranking rules)`;
}
