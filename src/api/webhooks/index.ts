// The /webhooks contract without HTTP (tasks.md §13; the binary's answers where the reference is
// silent): body validation with Meilisearch's messages, the merge of a patch into a webhook, the
// view (an `authorization` header's value masked), uuid path parameters and their errors.
//
// Checked against Meilisearch 1.50: unknown and immutable fields and value types first (deserr, in
// payload order), then the merged webhook: its URL (missing, then unparsable), the number of its
// headers, then each header's name and value as the `http` crate accepts them. A header set to
// `null` is removed by a patch and stored as the empty string by a creation.
import { ApiError } from '../errors/index.ts';
import { checkFields, expectObject, typeError, type JsonObject } from '../validate/index.ts';
import { urlParseError } from '../validate/url.ts';
import { maskSecret } from '../tasks/details.ts';
import { parseUuid } from '../../auth/uuid.ts';

/** A webhook as stored (the one given at launch has the nil uuid). */
export interface Webhook {
  uuid: string;
  url: string;
  headers: Record<string, string>;
}

export interface WebhookPatch {
  /** null: sent as null (the URL is then missing) */
  url?: string | null;
  /** null: every header removed; a null value: that header removed */
  headers?: Record<string, string | null> | null;
}

export interface WebhookView {
  uuid: string;
  isEditable: boolean;
  url: string;
  headers: Record<string, string>;
}

export const WEBHOOK_FIELDS = ['url', 'headers'] as const;
export const MAX_WEBHOOKS = 20;
export const MAX_WEBHOOK_HEADERS = 200;
/** The uuid of the webhook given by `--task-webhook-url`, which the API cannot change. */
export const LAUNCH_WEBHOOK_UUID = '00000000-0000-0000-0000-000000000000';

const IMMUTABLE = { uuid: 'immutable_webhook_uuid', isEditable: 'immutable_webhook_is_editable' } as const;

/** Validates a POST or PATCH /webhooks body (its values' types; the merge checks the rest). */
export function parseWebhookBody(body: unknown): WebhookPatch {
  const obj = expectObject(body);
  const patch: WebhookPatch = {};
  // in payload order, as deserr: the first bad field wins
  for (const [field, value] of Object.entries(obj)) {
    if (field !== 'url' && field !== 'headers') checkFields({ [field]: value }, { known: WEBHOOK_FIELDS, immutable: IMMUTABLE });
    if (field === 'url') {
      if (value !== null && typeof value !== 'string') throw typeError('.url', 'a string', value, 'invalid_webhook_url');
      patch.url = value;
    } else if (field === 'headers') {
      patch.headers = value === null ? null : parseHeaders(value);
    }
  }
  return patch;
}

function parseHeaders(value: unknown): Record<string, string | null> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw typeError('.headers', 'an object', value, 'invalid_webhook_headers');
  const out: Record<string, string | null> = {};
  for (const [name, v] of Object.entries(value as JsonObject)) {
    if (v !== null && typeof v !== 'string') throw typeError(`.headers.${name}`, 'a string', v, 'invalid_webhook_headers');
    out[name] = v;
  }
  return out;
}

/** The webhook a patch makes of `current` (null: a creation), checked as a whole. */
export function applyWebhookPatch(current: Webhook | null, uuid: string, patch: WebhookPatch): Webhook {
  const url = patch.url === undefined ? current?.url ?? null : patch.url;
  let headers: Record<string, string> = { ...(current?.headers ?? {}) };
  if (patch.headers === null) headers = {};
  else if (patch.headers !== undefined) {
    for (const [name, value] of Object.entries(patch.headers)) {
      if (value !== null) headers[name] = value;
      else if (current === null) headers[name] = '';
      else delete headers[name];
    }
  }
  if (url === null || url === '') throw new ApiError('invalid_webhook_url', `The URL for the webhook \`${uuid}\` is missing.`);
  const reason = urlParseError(url);
  if (reason !== undefined) throw new ApiError('invalid_webhook_url', `Invalid URL \`${url}\`: ${reason}`);
  if (Object.keys(headers).length > MAX_WEBHOOK_HEADERS) {
    throw new ApiError(
      'invalid_webhook_headers',
      `Too many headers for the webhook \`${uuid}\`. Please limit the number of headers to ${MAX_WEBHOOK_HEADERS}. Hint: To remove an already defined header set its value to \`null\``,
    );
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name)) throw new ApiError('invalid_webhook_headers', `Invalid header name \`${name}\`: invalid HTTP header name`);
    if (!isHeaderValue(value)) throw new ApiError('invalid_webhook_headers', `Invalid header value \`${name}\`: failed to parse header value`);
  }
  return { uuid, url, headers };
}

/** The error of a creation past the limit (the launch webhook does not count). */
export function tooManyWebhooks(): ApiError {
  return new ApiError(
    'invalid_webhooks',
    `Defining too many webhooks would crush the server. Please limit the number of webhooks to ${MAX_WEBHOOKS}. You may use a third-party proxy server to dispatch events to more than ${MAX_WEBHOOKS} endpoints.`,
  );
}

export function webhookNotFound(uuid: string): ApiError {
  return new ApiError('webhook_not_found', `Webhook \`${uuid}\` not found.`);
}

export function immutableWebhook(uuid: string): ApiError {
  return new ApiError('immutable_webhook', `Webhook \`${uuid}\` is immutable. The webhook defined from the command line cannot be modified using the API.`);
}

/** The canonical form of a uuid path parameter, or `invalid_webhook_uuid`. */
export function parseWebhookUuid(raw: string): string {
  const parsed = parseUuid(raw);
  if (!parsed.ok) throw new ApiError('invalid_webhook_uuid', `Invalid UUID: ${parsed.reason}`);
  return parsed.uuid;
}

// RFC 9110 token characters, which is what the `http` crate takes as a header name
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** Visible ASCII, space, tab and bytes past 0x7f (any non-ASCII character), as `HeaderValue::from_str`. */
function isHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) return false;
  }
  return true;
}

/** The API's view: headers in key order, an `authorization` value masked (after its `Bearer ` prefix). */
export function webhookView(webhook: Webhook): WebhookView {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(webhook.headers).sort(byBytes)) {
    const value = webhook.headers[name]!;
    headers[name] = name.toLowerCase() !== 'authorization' ? value : value.startsWith('Bearer ') ? `Bearer ${maskSecret(value.slice(7))}` : maskSecret(value);
  }
  return { uuid: webhook.uuid, isEditable: webhook.uuid !== LAUNCH_WEBHOOK_UUID, url: webhook.url, headers };
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
