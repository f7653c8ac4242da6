// Ranking rule syntax (settings.md §6.5, milli's `Criterion::from_str` / `AscDesc` / `Member`).
import { ApiError } from '../errors/index.ts';
import { sortedSet } from './deserr.ts';

export const BUILTIN_RANKING_RULES = [
  'words', 'typo', 'proximity', 'attribute', 'attributeRank', 'wordPosition', 'sort', 'exactness',
] as const;

export type RankingRule =
  | { kind: (typeof BUILTIN_RANKING_RULES)[number] }
  | { kind: 'asc' | 'desc'; field: string };

const RESERVED = new Set(['_geo', '_geoDistance', '_geoPoint', '_geoRadius', '_geoBoundingBox', '_geojson', '_geoPolygon']);

/** Parses one rule; returns the message (without the path prefix) when it is invalid. */
export function parseRankingRule(text: string): RankingRule | string {
  if ((BUILTIN_RANKING_RULES as readonly string[]).includes(text)) {
    return { kind: text as (typeof BUILTIN_RANKING_RULES)[number] };
  }
  // split at the last `:`, so `price:asc:desc` is the field `price:asc` descending
  const colon = text.lastIndexOf(':');
  const suffix = colon < 0 ? '' : text.slice(colon + 1);
  if (colon < 0 || (suffix !== 'asc' && suffix !== 'desc')) {
    return `\`${text}\` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.`;
  }
  const field = text.slice(0, colon);
  const reserved = reservedMessage(field);
  if (reserved !== undefined) return reserved;
  return { kind: suffix, field };
}

function reservedMessage(field: string): string | undefined {
  // `_geoPoint(lat, lng)` parses as a geo member whatever its coordinates: always the sort message
  if (field === '_geoPoint' || field.startsWith('_geoPoint(')) return forSort('_geoPoint');
  if (field.startsWith('_geoRadius(') || field === '_geoRadius') return forFilter('_geoRadius');
  if (field.startsWith('_geoBoundingBox(') || field === '_geoBoundingBox') return forFilter('_geoBoundingBox');
  if (RESERVED.has(field)) return `\`${field}\` is a reserved keyword and thus can't be used as a ranking rule`;
  return undefined;
}

function forSort(name: string): string {
  return `\`${name}\` is a reserved keyword and thus can't be used as a ranking rule. \`${name}\` can only be used for sorting at search time`;
}

function forFilter(name: string): string {
  return `\`${name}\` is a reserved keyword and thus can't be used as a ranking rule. \`${name}\` can only be used for filtering at search time`;
}

/** Rejects `attribute` mixed with `attributeRank`/`wordPosition` (400, no path prefix). */
export function checkAttributeRulesMix(rules: readonly string[]): void {
  const legacy = rules.includes('attribute');
  if (legacy && (rules.includes('attributeRank') || rules.includes('wordPosition'))) {
    throw new ApiError(
      'invalid_settings_ranking_rules',
      'Mixed usage of the attribute, attributeRank, and wordPosition ranking rules. You must either use the attribute ranking rule alone or the attributeRank and wordPosition ranking rules.',
    );
  }
}

/** The fields named by `field:asc` / `field:desc` rules (they become faceted), in byte order. */
export function ascDescFields(rules: readonly string[]): string[] {
  const out: string[] = [];
  for (const r of rules) {
    const parsed = parseRankingRule(r);
    if (typeof parsed !== 'string' && (parsed.kind === 'asc' || parsed.kind === 'desc')) out.push(parsed.field);
  }
  return sortedSet(out);
}
