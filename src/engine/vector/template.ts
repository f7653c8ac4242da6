// Document templates of embedders (vectors-embedders.md §3): Liquid (liquidjs, with Shopify's
// standard tags and filters) rendering a document into the text an embedder embeds. The context
// is `doc` (the document's top-level fields but `_vectors`, `_geo`, `_geojson`) and `fields`
// (each field's `name`, `value` and `is_searchable`). As Meilisearch's liquid-rust, it is strict:
// printing a variable or key the document does not have fails the rendering (a condition on it
// is only false). Values print as liquid-rust prints them: arrays as their items one after the
// other, objects as each key followed by its value (checked on Meilisearch 1.50's render route).
// The text is cut to `documentTemplateMaxBytes` on a character boundary.
import { Drop, Liquid, type Template } from 'liquidjs';

export const DEFAULT_DOCUMENT_TEMPLATE =
  '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}';
export const DEFAULT_TEMPLATE_MAX_BYTES = 400;

const HIDDEN = new Set(['_vectors', '_geo', '_geojson']);

const engine = new Liquid({ strictVariables: true, lenientIf: true, strictFilters: true, ownPropertyOnly: true, cache: false });

export class TemplateError extends Error {
  override name = 'TemplateError';
}

/**
 * An object as liquid-rust prints it (`{"k":"v"}` → `kv`), its keys still readable one by one;
 * printed only when a template prints it.
 */
class ObjectDrop extends Drop {
  readonly #raw: Record<string, unknown>;

  constructor(obj: Record<string, unknown>, fields: Record<string, unknown> = wrapAll(obj)) {
    super();
    Object.assign(this, fields);
    this.#raw = obj;
  }

  override valueOf(): string {
    return printed(this.#raw);
  }
}

function wrapAll(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = wrap(v);
  return out;
}

function wrap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(wrap);
  if (value !== null && typeof value === 'object') return new ObjectDrop(value as Record<string, unknown>);
  return value;
}

function printed(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(printed).join('');
  if (typeof value === 'object') return Object.entries(value as Record<string, unknown>).map(([k, v]) => k + printed(v)).join('');
  return String(value);
}

/** Throws a TemplateError with liquidjs's message when the text is not a template. */
export function parseTemplate(text: string): Template[] {
  try {
    return engine.parse(text);
  } catch (err) {
    throw new TemplateError((err as Error).message);
  }
}

export class DocumentTemplate {
  readonly #templates: Template[];
  readonly #maxBytes: number;

  constructor(text: string = DEFAULT_DOCUMENT_TEMPLATE, maxBytes: number = DEFAULT_TEMPLATE_MAX_BYTES) {
    this.#templates = parseTemplate(text);
    this.#maxBytes = maxBytes;
  }

  /** The text of `doc`; `isSearchable` tells `field.is_searchable`. Throws a TemplateError when the template needs a field it lacks. */
  render(doc: Record<string, unknown>, isSearchable: (field: string) => boolean = () => true): string {
    const fields: { name: string; value: unknown; is_searchable: boolean }[] = [];
    const drop = docDrop(doc, (name, value) => fields.push({ name, value, is_searchable: isSearchable(name) }));
    return truncateBytes(renderParsed(this.#templates, { doc: drop, fields }), this.#maxBytes);
  }
}

/** The `doc` of a template's context: the document without `_vectors`, `_geo`, `_geojson`; `each` sees every field kept. */
export function docDrop(doc: Record<string, unknown>, each?: (name: string, value: unknown) => void): Drop {
  const raw: Record<string, unknown> = {};
  const visible: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(doc)) {
    if (HIDDEN.has(name)) continue;
    const wrapped = wrap(value);
    raw[name] = value;
    visible[name] = wrapped;
    each?.(name, wrapped);
  }
  return new ObjectDrop(raw, visible);
}

/** A JSON value as templates see it (objects print as liquid-rust prints them). */
export const templateValue = wrap;

/** Renders parsed templates in `scope`; a TemplateError when they need a variable the scope lacks. */
export function renderParsed(templates: Template[], scope: Record<string, unknown>): string {
  try {
    return engine.renderSync(templates, scope) as string;
  } catch (err) {
    throw new TemplateError((err as Error).message);
  }
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that ends on a character boundary. */
export function truncateBytes(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // back off continuation bytes (10xxxxxx) to the start of the character cut in two
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
