// Parameters of GET /documents, POST /documents/fetch and GET /documents/:id (documents.md §4).
import { ApiError } from '../errors/index.ts';
import { asArray, asBoolean, asPositiveInteger, checkFields, expectObject, typeError } from '../validate/index.ts';
import { boolParam, checkParams, intParam, type RawQuery } from '../validate/query.ts';
import { canonicalId } from '../../engine/index/primary-key.ts';
import { fixSortParameter } from '../search/query-get.ts';

export interface FetchDocuments {
  offset: number;
  limit: number;
  /** null: every field */
  fields: string[] | null;
  retrieveVectors: boolean;
  ids: string[] | null;
  filter: unknown;
  sort: string[] | null;
  /** POST only: needs the `network` feature (the search's `rejectUseNetwork`) */
  useNetwork: boolean | null;
}

export const FETCH_FIELDS = ['offset', 'limit', 'fields', 'retrieveVectors', 'ids', 'filter', 'sort', 'useNetwork'] as const;

/** `useNetwork` in a query string: Meilisearch 1.50 cannot read it there and refuses every value. */
function refuseUseNetwork(query: RawQuery): void {
  if (query.useNetwork !== undefined) {
    throw new ApiError('invalid_document_use_network', `Invalid value type for parameter \`useNetwork\`: expected a string, but found a string: \`${query.useNetwork}\``);
  }
}

function invalidId(value: unknown, path: string): ApiError {
  return new ApiError(
    'invalid_document_ids',
    `In \`${path}\`: Document identifier \`${JSON.stringify(value)}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
  );
}

function fieldList(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const list = raw.split(',').map((f) => f.trim());
  if (list.includes('*')) return null;
  return raw === '' ? [] : list;
}

/** GET /indexes/:uid/documents query. */
export function parseBrowseQuery(query: RawQuery): FetchDocuments {
  checkParams(query, FETCH_FIELDS);
  refuseUseNetwork(query);
  let ids: string[] | null = null;
  if (query.ids !== undefined) {
    ids = query.ids
      .split(',')
      .filter((s) => s !== '')
      .map((raw, i) => {
        const id = canonicalId(raw);
        if (id === null) throw invalidId(raw, `.ids[${i}]`);
        return id;
      });
  }
  let filter: unknown = undefined;
  if (query.filter !== undefined) {
    try {
      filter = JSON.parse(query.filter);
    } catch {
      filter = query.filter;
    }
  }
  return {
    offset: intParam(query, 'offset', 0, 'invalid_document_offset'),
    limit: intParam(query, 'limit', 20, 'invalid_document_limit'),
    fields: fieldList(query.fields),
    retrieveVectors: boolParam(query, 'retrieveVectors', false, 'invalid_document_retrieve_vectors'),
    ids,
    filter,
    sort: query.sort === undefined ? null : fixSortParameter(query.sort).filter((s) => s !== ''),
    useNetwork: null,
  };
}

/** POST /indexes/:uid/documents/fetch body. */
export function parseFetchBody(body: unknown): FetchDocuments {
  const obj = expectObject(body ?? null);
  checkFields(obj, { known: FETCH_FIELDS });
  const fields = obj.fields === undefined || obj.fields === null ? null : asArray(obj.fields, '.fields', 'invalid_document_fields');
  const fieldNames = fields?.map((f, i) => {
    if (typeof f !== 'string') throw typeError(`.fields[${i}]`, 'a string', f, 'invalid_document_fields');
    return f;
  });
  let ids: string[] | null = null;
  if (obj.ids !== undefined && obj.ids !== null) {
    ids = asArray(obj.ids, '.ids', 'invalid_document_ids').map((v, i) => {
      const id = canonicalId(v);
      if (id === null) throw invalidId(v, `.ids[${i}]`);
      return id;
    });
  }
  let sort: string[] | null = null;
  if (obj.sort !== undefined && obj.sort !== null) {
    sort = asArray(obj.sort, '.sort', 'invalid_document_sort').map((v, i) => {
      if (typeof v !== 'string') throw typeError(`.sort[${i}]`, 'a string', v, 'invalid_document_sort');
      return v;
    });
  }
  return {
    offset: obj.offset === undefined ? 0 : asPositiveInteger(obj.offset, '.offset', 'invalid_document_offset'),
    limit: obj.limit === undefined ? 20 : asPositiveInteger(obj.limit, '.limit', 'invalid_document_limit'),
    fields: fieldNames === undefined || fieldNames.includes('*') ? null : fieldNames,
    retrieveVectors: obj.retrieveVectors === undefined ? false : asBoolean(obj.retrieveVectors, '.retrieveVectors', 'invalid_document_retrieve_vectors'),
    ids,
    filter: obj.filter ?? undefined,
    sort,
    useNetwork: obj.useNetwork === undefined || obj.useNetwork === null ? null : asBoolean(obj.useNetwork, '.useNetwork', 'invalid_document_use_network'),
  };
}

/** GET /indexes/:uid/documents/:id query. */
export function parseGetDocumentQuery(query: RawQuery): { fields: string[] | null; retrieveVectors: boolean } {
  checkParams(query, ['fields', 'retrieveVectors', 'useNetwork']);
  refuseUseNetwork(query);
  return {
    fields: fieldList(query.fields),
    retrieveVectors: boolParam(query, 'retrieveVectors', false, 'invalid_document_retrieve_vectors'),
  };
}

