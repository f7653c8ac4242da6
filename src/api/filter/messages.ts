// Meilisearch's wording of filter evaluation errors (filters.md §8; milli `error.rs`,
// `FilterError`) and of the experimental feature gates of filters (index-scheduler `filter.rs`).

import type { FieldAccess, FilterOperator } from '../../engine/filter/eval/index.ts';

/** ``Attribute `x` is not filterable. …`` without the column line. */
export function notFilterable(attribute: string, patterns: readonly string[]): string {
  const tail =
    patterns.length === 0
      ? 'This index does not have configured filterable attributes.'
      : `Available filterable attribute patterns are: ${patterns.map((p) => `\`${p}\``).join(', ')}.`;
  return `Attribute \`${attribute}\` is not filterable. ${tail}`;
}

/** The operators a rule's features allow, in milli's order (`FilterFeatures::allowed_operators`). */
export function allowedOperators(access: Pick<FieldAccess, 'equality' | 'comparison'>): string[] {
  if (!access.equality && !access.comparison) return [];
  return [
    'OR',
    'AND',
    'NOT',
    ...(access.equality ? ['=', '!=', 'IN'] : []),
    ...(access.comparison ? ['<', '>', '<=', '>=', 'TO'] : []),
    'IS EMPTY',
    'IS NULL',
    'EXISTS',
  ];
}

/** milli `FilterOperatorNotAllowed`: four indented notes and hints, no column line. */
export function operatorNotAllowed(field: string, operator: FilterOperator, access: FieldAccess): string {
  const feature = ['=', '!=', 'IN'].includes(operator)
    ? 'equality'
    : ['<', '>', '<=', '>=', 'TO'].includes(operator)
      ? 'comparison'
      : 'the appropriate filter operators';
  const rule = `rule #${access.rule}`;
  return [
    `Filter operator \`${operator}\` is not allowed for the attribute \`${field}\`.`,
    `  - Note: allowed operators: ${allowedOperators(access).join(', ')}.`,
    `  - Note: field \`${field}\` matched ${rule} in \`filterableAttributes\``,
    `  - Hint: enable ${feature} in ${rule} by modifying the features.filter object`,
    `  - Hint: prepend another rule matching \`${field}\` with appropriate filter features before ${rule}`,
  ].join('\n');
}

/** `FeatureNotEnabledError`: ``<action> requires enabling the `<feature>` experimental feature. See <link>``. */
export function featureGate(action: string, feature: string, link: string): string {
  return `${action} requires enabling the \`${feature}\` experimental feature. See ${link}`;
}

export const CONTAINS_GATE = featureGate('Using `CONTAINS` in a filter', 'contains filter', 'https://github.com/orgs/meilisearch/discussions/763');
export const FOREIGN_GATE = featureGate('using a foreign filter', 'foreign_keys', 'https://github.com/orgs/meilisearch/discussions/873');
export const SHARD_GATE = featureGate('using a shard filter', 'network', 'https://github.com/orgs/meilisearch/discussions/805');
export const VECTOR_GATE = featureGate('using a vector filter', 'multimodal', 'https://github.com/orgs/meilisearch/discussions/846');
