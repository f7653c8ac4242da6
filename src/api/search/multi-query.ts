// The POST /multi-search body (multi-search.md §1): `queries` (each a search body plus
// `indexUid` and `federationOptions`) and the optional `federation`. Fields are read in the
// body's order and the first problem is reported, as deserr does; each query's search
// parameters go through `parseSearchBody`, with the error path moved under `.queries[i]`.
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { invalidIndexUid, isValidIndexUid } from '../indexes/uid.ts';
import {
  asArray, asBoolean, asPositiveInteger, asString, asStringArray, expectObject, typeError, unknownField,
  valueError, type Json, type JsonObject,
} from '../validate/index.ts';
import { parseSearchBody, SEARCH_BODY_FIELDS } from './query.ts';
import { defaultSearchQuery, DEFAULT_SEARCH_LIMIT, type SearchQuery } from './query-types.ts';

/** `federationOptions` of a query (federated search only). */
export interface FederationOptions {
  /** multiplies the query's scores (≥ 0) */
  weight: number;
  /** experimental network: the remote instance to send the query to */
  remote: string | null;
  /** experimental network: the reported `queriesPosition` */
  queryPosition: number | null;
}

/** One entry of `queries`. */
export interface MultiQuery {
  indexUid: string;
  query: SearchQuery;
  /** search fields sent with a non-null value (Meilisearch's `Option::is_some`) */
  given: ReadonlySet<string>;
  federationOptions: FederationOptions | null;
}

/** The `federation` object (multi-search.md §1). */
export interface Federation {
  limit: number;
  offset: number;
  page: number | null;
  hitsPerPage: number | null;
  /** index uid → facet names (null: none), in body order */
  facetsByIndex: Map<string, string[] | null>;
  mergeFacets: { maxValuesPerFacet: number | null } | null;
  distinct: string | null;
  showPerformanceDetails: boolean;
  personalize: { userContext: string } | null;
}

export interface MultiSearchRequest {
  queries: MultiQuery[];
  /** null: independent results (multi-search); present, even `{}`: one merged list */
  federation: Federation | null;
}

const BODY_FIELDS = ['queries', 'federation'] as const;
/** `SearchQueryWithIndex` in declaration order: the search fields inline between these two. */
export const MULTI_QUERY_FIELDS = ['indexUid', ...SEARCH_BODY_FIELDS, 'federationOptions'] as const;
const FEDERATION_FIELDS = [
  'limit', 'offset', 'page', 'hitsPerPage', 'facetsByIndex', 'mergeFacets', 'distinct', 'showPerformanceDetails', 'personalize',
] as const;
const FEDERATION_OPTIONS_FIELDS = ['weight', 'remote', 'queryPosition'] as const;

/** Meilisearch's message for a negative `federationOptions.weight`. */
export const WEIGHT_REASON = 'the value of `weight` is invalid, expected a positive float (>= 0.0).';

/** Parses a POST /multi-search body (already JSON-decoded). */
export function parseMultiSearchBody(body: unknown): MultiSearchRequest {
  const obj = expectObject(body === undefined ? null : body);
  let queries: MultiQuery[] | undefined;
  let federation: Federation | null = null;
  for (const key of Object.keys(obj)) {
    const value = obj[key]!;
    if (key === 'queries') queries = asArray(value, '.queries', 'bad_request').map((q, i) => parseQuery(q, i));
    else if (key === 'federation') federation = value === null ? null : parseFederation(value);
    else throw unknownField(key, BODY_FIELDS, 'bad_request');
  }
  if (queries === undefined) throw new ApiError('bad_request', 'Missing field `queries`');
  return { queries, federation };
}

function parseQuery(value: Json, i: number): MultiQuery {
  const path = `.queries[${i}]`;
  const obj = expectObject(value, path, 'bad_request');
  const query = defaultSearchQuery();
  const given = new Set<string>();
  let indexUid: string | undefined;
  let federationOptions: FederationOptions | null = null;
  for (const key of Object.keys(obj)) {
    const v = obj[key]!;
    if (key === 'indexUid') indexUid = parseIndexUid(v, `${path}.indexUid`);
    else if (key === 'federationOptions') federationOptions = v === null ? null : parseFederationOptions(v, `${path}.federationOptions`);
    else if ((SEARCH_BODY_FIELDS as readonly string[]).includes(key)) {
      parseSearchField(query, key, v, path);
      if (v !== null) given.add(key);
    } else throw unknownField(key, MULTI_QUERY_FIELDS, 'bad_request', path);
  }
  if (indexUid === undefined) throw new ApiError('missing_index_uid', `Missing field \`indexUid\` inside \`${path}\``);
  return { indexUid, query, given, federationOptions };
}

/** One search field through the single-search parser; its error path moves under `path`. */
function parseSearchField(query: SearchQuery, key: string, value: Json, path: string): void {
  let parsed: SearchQuery;
  try {
    parsed = parseSearchBody({ [key]: value });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // the path is the first backquoted `.key...` after "at" / "inside"; values come after it
    const at = new RegExp(`( (?:at|inside) \`)\\.${key}(?=[.\\[\`])`);
    throw new ApiError(err.code, err.message.replace(at, `$1${path}.${key}`));
  }
  (query as unknown as Record<string, unknown>)[key] = (parsed as unknown as Record<string, unknown>)[key];
}

function parseIndexUid(v: Json, path: string): string {
  if (typeof v !== 'string') throw typeError(path, 'a string', v, 'invalid_index_uid');
  if (!isValidIndexUid(v)) throw invalidIndexUid(v, `Invalid value at \`${path}\`: `);
  return v;
}

/** Reads an object field by field: unknown keys rejected (with `code`), first error wins. */
function fields(v: Json, path: string, known: readonly string[], code: ErrorCode, read: (key: string, value: Json, at: string) => void): void {
  const obj: JsonObject = expectObject(v, path, 'bad_request');
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) throw unknownField(key, known, code, path);
    read(key, obj[key]!, `${path}.${key}`);
  }
}

const optUint = (v: Json, at: string, code: ErrorCode): number | null => (v === null ? null : asPositiveInteger(v, at, code));
const optString = (v: Json, at: string, code: ErrorCode): string | null => (v === null ? null : asString(v, at, code));

function parseFederationOptions(v: Json, path: string): FederationOptions {
  const out: FederationOptions = { weight: 1, remote: null, queryPosition: null };
  fields(v, path, FEDERATION_OPTIONS_FIELDS, 'bad_request', (key, value, at) => {
    if (key === 'weight') {
      if (typeof value !== 'number') throw typeError(at, 'a number', value, 'invalid_multi_search_weight');
      if (value < 0) throw valueError(at, WEIGHT_REASON, 'invalid_multi_search_weight');
      out.weight = value;
    } else if (key === 'remote') out.remote = optString(value, at, 'invalid_multi_search_remote');
    else out.queryPosition = optUint(value, at, 'invalid_multi_search_query_position');
  });
  return out;
}

function parseFederation(v: Json): Federation {
  const out: Federation = {
    limit: DEFAULT_SEARCH_LIMIT, offset: 0, page: null, hitsPerPage: null, facetsByIndex: new Map(), mergeFacets: null,
    distinct: null, showPerformanceDetails: false, personalize: null,
  };
  fields(v, '.federation', FEDERATION_FIELDS, 'bad_request', (key, value, at) => {
    switch (key as (typeof FEDERATION_FIELDS)[number]) {
      case 'limit':
        return void (out.limit = asPositiveInteger(value, at, 'invalid_search_limit'));
      case 'offset':
        return void (out.offset = asPositiveInteger(value, at, 'invalid_search_offset'));
      case 'page':
        return void (out.page = optUint(value, at, 'invalid_search_page'));
      case 'hitsPerPage':
        return void (out.hitsPerPage = optUint(value, at, 'invalid_search_hits_per_page'));
      case 'facetsByIndex':
        return void (out.facetsByIndex = parseFacetsByIndex(value, at));
      case 'mergeFacets':
        return void (out.mergeFacets = value === null ? null : parseMergeFacets(value, at));
      case 'distinct':
        return void (out.distinct = optString(value, at, 'invalid_search_distinct'));
      case 'showPerformanceDetails':
        return void (out.showPerformanceDetails = asBoolean(value, at, 'invalid_multi_search_query_show_performance_details'));
      case 'personalize':
        return void (out.personalize = value === null ? null : parsePersonalize(value, at));
    }
  });
  return out;
}

function parseFacetsByIndex(v: Json, path: string): Map<string, string[] | null> {
  const code = 'invalid_multi_search_facets_by_index';
  const obj = expectObject(v, path, code);
  const out = new Map<string, string[] | null>();
  for (const uid of Object.keys(obj)) {
    const at = `${path}.${uid}`;
    if (!isValidIndexUid(uid)) throw new ApiError(code, invalidIndexUid(uid, `Invalid value at \`${at}\`: `).message);
    const facets = obj[uid]!;
    out.set(uid, facets === null ? null : asStringArray(facets, at, code));
  }
  return out;
}

function parseMergeFacets(v: Json, path: string): { maxValuesPerFacet: number | null } {
  const out = { maxValuesPerFacet: null as number | null };
  const code = 'invalid_multi_search_merge_facets';
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw typeError(path, 'an object', v, code);
  fields(v, path, ['maxValuesPerFacet'], code, (_key, value, at) => {
    out.maxValuesPerFacet = optUint(value, at, 'invalid_multi_search_max_values_per_facet');
  });
  return out;
}

function parsePersonalize(v: Json, path: string): { userContext: string } {
  const code = 'invalid_search_personalize';
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw typeError(path, 'an object', v, code);
  let userContext: string | undefined;
  fields(v, path, ['userContext'], code, (_key, value, at) => {
    userContext = asString(value, at, 'invalid_search_personalize_user_context');
  });
  if (userContext === undefined) throw new ApiError(code, `Missing field \`userContext\` inside \`${path}\``);
  return { userContext };
}
