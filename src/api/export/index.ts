// The body of `POST /export` as Meilisearch 1.50 validates it (checked against the binary): `url`
// and `apiKey` strings, `payloadSize` a byte count or a byte_unit text (`"50KiB"`, `"1.5 MiB"`),
// `indexes` index uid patterns to `{ filter, overrideSettings }` (default: every index). A missing
// `url` is taken as the empty string, as the binary takes it; the task then fails.
import { ApiError } from '../errors/index.ts';
import { isValidIndexUidPattern } from '../../auth/index-pattern.ts';
import { asBoolean, checkFields, expectObject, typeError } from '../validate/index.ts';

export interface ExportIndexOptions {
  filter: unknown;
  overrideSettings: boolean;
}

export interface ExportRequest {
  url: string;
  apiKey: string | null;
  /** bytes; null: the default */
  payloadSize: number | null;
  indexes: Record<string, ExportIndexOptions>;
}

/** The payload size of an export that gives none (Meilisearch's default). */
export const DEFAULT_EXPORT_PAYLOAD_SIZE = 50 * 1024 * 1024;

const FIELDS = ['url', 'apiKey', 'payloadSize', 'indexes'] as const;
const INDEX_FIELDS = ['filter', 'overrideSettings'] as const;

export function parseExport(body: unknown): ExportRequest {
  const obj = expectObject(body);
  checkFields(obj, { known: FIELDS });
  const out: ExportRequest = { url: '', apiKey: null, payloadSize: null, indexes: { '*': { filter: null, overrideSettings: false } } };
  if (obj.url !== undefined && obj.url !== null) {
    if (typeof obj.url !== 'string') throw typeError('.url', 'a string', obj.url, 'invalid_export_url');
    out.url = obj.url;
  }
  if (obj.apiKey !== undefined && obj.apiKey !== null) {
    if (typeof obj.apiKey !== 'string') throw typeError('.apiKey', 'a string', obj.apiKey, 'invalid_export_api_key');
    out.apiKey = obj.apiKey;
  }
  if (obj.payloadSize !== undefined && obj.payloadSize !== null) out.payloadSize = payloadSize(obj.payloadSize);
  if (obj.indexes !== undefined && obj.indexes !== null) {
    const indexes = expectObject(obj.indexes, '.indexes');
    out.indexes = {};
    for (const [pattern, raw] of Object.entries(indexes)) {
      if (!isValidIndexUidPattern(pattern)) {
        throw new ApiError(
          'bad_request',
          `Invalid value at \`.indexes\`: the key ${JSON.stringify(pattern)} could not be deserialized into the key type \`meilisearch_types::index_uid_pattern::IndexUidPattern\``,
        );
      }
      const path = `.indexes.${pattern}`;
      const options = expectObject(raw, path);
      for (const key of Object.keys(options)) {
        if (!(INDEX_FIELDS as readonly string[]).includes(key)) {
          throw new ApiError('bad_request', `Unknown field \`${key}\` inside \`${path}\`: expected one of \`filter\`, \`overrideSettings\``);
        }
      }
      const override = options.overrideSettings;
      out.indexes[pattern] = {
        filter: options.filter ?? null,
        overrideSettings: override === undefined || override === null ? false : asBoolean(override, `${path}.overrideSettings`, 'invalid_export_index_override_settings'),
      };
    }
  }
  return out;
}

const UNITS: Record<string, number> = { '': 1, b: 1 };
['k', 'm', 'g', 't', 'p', 'e'].forEach((letter, i) => {
  UNITS[letter] = UNITS[`${letter}b`] = 1000 ** (i + 1);
  UNITS[`${letter}i`] = UNITS[`${letter}ib`] = 1024 ** (i + 1);
});

/** A positive integer, or a byte_unit text: a number, spaces, a unit (case-insensitive). */
export function payloadSize(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value !== 'string') throw typeError('.payloadSize', 'a positive integer or a string', value, 'invalid_export_payload_size');
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(value);
  const factor = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || factor === undefined) {
    const bad = [...value.trim()].find((c) => !/[\d.]/.test(c)) ?? value;
    const reason = m ? `the unit \`${m[2]}\` is not a byte unit` : `the character '${bad}' is not a number`;
    throw new ApiError('invalid_export_payload_size', `Invalid value at \`.payloadSize\`: ${reason}`);
  }
  return Math.round(Number(m[1]) * factor);
}
