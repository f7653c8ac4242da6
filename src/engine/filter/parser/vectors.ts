// Experimental vector filters (filter-parser `condition.rs`, `parse_vectors_exists`):
//
//   vectorsExists = multispace* "_vectors" ( multispace+ | "." embedder suffix? multispace+ )
//                   ( "EXISTS" | "NOT" multispace+ "EXISTS" )
//   suffix        = ".fragments" "." name | ".userProvided" | ".documentTemplate" | ".regenerate"
//   embedder, name = 'quoted' | "quoted" | ( alphanumeric | _ | - )+
//
// `_vectors` followed by a space, or by a dot, commits: every later mistake is fatal with its own
// message (missing or invalid embedder, unknown suffix with a spelling suggestion, leftover text,
// no EXISTS). Suffixes are prefix matches, as nom's `tag`s are. This branch comes after `=`, `IN`
// and `IS …` in the primary alternatives, so `_vectors = 1` is an ordinary condition, while
// `_vectors 1 TO 2` is refused.

import type { FilterNode, Token, VectorSubset } from './ast.ts';
import type { ErrorKind } from './errors.ts';
import { isValueComponent, ok, recast, type Result, type Scanner } from './scanner.ts';
import { scanQuoted } from './value.ts';

const SUFFIXES: readonly (readonly [string, VectorSubset])[] = [
  ['.userProvided', 'userProvided'],
  ['.documentTemplate', 'documentTemplate'],
  ['.regenerate', 'regenerate'],
];

export function parseVectorsExists(sc: Scanner, pos: number): Result<FilterNode> {
  const parsed = parseVectors(sc, pos);
  if (!parsed.ok) return parsed;
  const { field, embedder, subset, fragment } = parsed.value;
  const node: FilterNode = { kind: 'vectorExists', field, embedder, subset, fragment };
  const at = parsed.pos;
  if (sc.startsWith(at, 'EXISTS')) return ok(at + 6, node);
  if (sc.startsWith(at, 'NOT')) {
    const exists = sc.multispace1(at + 3);
    if (exists !== null && sc.startsWith(exists, 'EXISTS')) {
      return ok(exists + 6, { kind: 'not', child: node });
    }
  }
  return sc.fatal({ k: 'vectorOperation' }, at);
}

interface VectorTarget {
  field: Token;
  embedder: Token | null;
  subset: VectorSubset;
  fragment: Token | null;
}

function parseVectors(sc: Scanner, pos: number): Result<VectorTarget> {
  const start = sc.skipMultispace(pos);
  if (!sc.startsWith(start, '_vectors')) return sc.error({ k: 'internal' }, start);
  const field: Token = { text: '_vectors', span: sc.span(start, start + 8) };
  let at = start + 8;
  const spaced = sc.multispace1(at);
  if (spaced !== null) return ok(spaced, { field, embedder: null, subset: 'all', fragment: null });
  if (sc.at(at) !== '.') return sc.error({ k: 'internal' }, at);
  at++;

  if (sc.at(at) === ' ') return sc.fatal({ k: 'vectorMissingEmbedder' }, at, at + 1);
  const embedder = committedName(sc, at, { k: 'vectorInvalidEmbedder' });
  if (!embedder.ok) return embedder;
  at = embedder.pos;

  let subset: VectorSubset = 'all';
  let fragment: Token | null = null;
  if (sc.startsWith(at, '.fragments')) {
    at += '.fragments'.length;
    if (sc.at(at) !== '.') return sc.fatal({ k: 'vectorMissingFragment' }, at);
    const name = committedName(sc, at + 1, { k: 'vectorInvalidFragment' });
    if (!name.ok) return name;
    subset = 'fragment';
    fragment = name.value;
    at = name.pos;
  } else {
    const suffix = SUFFIXES.find(([tag]) => sc.startsWith(at, tag));
    if (suffix !== undefined) {
      subset = suffix[1];
      at += suffix[0].length;
    }
  }

  if (sc.at(at) === '.') {
    const after = vectorName(sc, at + 1);
    const previous = subset === 'all' ? null : subset === 'fragment' ? 'fragments' : subset;
    const value = after.ok ? after.value.text : '.';
    const blamed = after.ok ? after.value.span : sc.span(at, at + 1);
    return sc.fatal({ k: 'vectorUnknownSuffix', previous, value }, blamed.start, blamed.end);
  }
  const end = sc.multispace1(at);
  if (end === null) return sc.fatal({ k: 'vectorLeftover' }, at);
  return ok(end, { field, embedder: embedder.value, subset, fragment });
}

/** A name after which the filter is known to be a vector filter: errors are fatal as `kind`. */
function committedName(sc: Scanner, pos: number, kind: ErrorKind): Result<Token> {
  const name = vectorName(sc, pos);
  return name.ok || name.fatal ? name : recast(name, kind);
}

/**
 * An embedder or fragment name: quoted (an escaped quote is unescaped; a missing closing quote
 * is fatal and blames the text from the opening quote on) or a word without dots.
 */
function vectorName(sc: Scanner, pos: number): Result<Token> {
  const quote = sc.at(pos);
  if (quote === "'" || quote === '"') {
    const inside = scanQuoted(sc, pos + 1, quote);
    if (inside === 'malformed' || inside.close === null) return sc.fatal({ k: 'vectorInvalidQuotes' }, pos);
    const raw = sc.text(pos + 1, inside.close);
    const text = inside.escapedQuote ? raw.split(`\\${quote}`).join(quote) : raw;
    return ok(inside.close + 1, { text, span: sc.span(pos + 1, inside.close) });
  }
  let end = pos;
  while (end < sc.length && sc.at(end) !== '.' && isValueComponent(sc.at(end)!)) end++;
  if (end === pos) return sc.error({ k: 'internal' }, pos);
  return ok(end, { text: sc.text(pos, end), span: sc.span(pos, end) });
}
