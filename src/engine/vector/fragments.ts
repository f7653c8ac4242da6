// Fragments of REST embedders (vectors-embedders.md §2.4, experimental `multimodal`): named JSON
// values whose strings are Liquid templates. `indexingFragments` render with `doc` (the document,
// as document templates see it): each fragment that renders is sent as `{{fragment}}` and gives
// the document one embedding, in the order of the fragments' names. `searchFragments` render with
// `q` and `media` from the search query: exactly one must render. A fragment that needs a variable
// the context lacks does not render (checked against Meilisearch 1.50: strings print as document
// templates print, other JSON values stay as they are).
import type { Template } from 'liquidjs';
import { parseTemplate, renderParsed } from './template.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

type Compiled = { kind: 'text'; templates: Template[] } | { kind: 'array'; items: Compiled[] } | { kind: 'object'; entries: [string, Compiled][] } | { kind: 'value'; value: Json };

function compile(value: unknown): Compiled {
  if (typeof value === 'string') return { kind: 'text', templates: parseTemplate(value) };
  if (Array.isArray(value)) return { kind: 'array', items: value.map(compile) };
  if (value !== null && typeof value === 'object') return { kind: 'object', entries: Object.entries(value).map(([k, v]) => [k, compile(v)]) };
  return { kind: 'value', value: value as Json };
}

function render(c: Compiled, scope: Record<string, unknown>, path: string): Json {
  switch (c.kind) {
    case 'text':
      try {
        return renderParsed(c.templates, scope);
      } catch (err) {
        throw new FragmentError(path, (err as Error).message);
      }
    case 'array':
      return c.items.map((i, k) => render(i, scope, `${path}[${k}]`));
    case 'object':
      return Object.fromEntries(c.entries.map(([k, v]) => [k, render(v, scope, `${path}.${k}`)]));
    case 'value':
      return c.value;
  }
}

/** A fragment that needs what the scope lacks; `path` is where in its value (`` for the whole). */
export class FragmentError extends Error {
  override name = 'FragmentError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** One fragment's value. */
export class Fragment {
  readonly #compiled: Compiled;

  /** Throws a TemplateError (liquidjs's message) for a string that is not a template. */
  constructor(value: unknown) {
    this.#compiled = compile(value);
  }

  /** The value rendered in `scope`; a FragmentError when it needs a variable the scope lacks. */
  render(scope: Record<string, unknown>): Json {
    return render(this.#compiled, scope, '');
  }
}

export interface RenderedFragment {
  name: string;
  value: Json;
}

export class FragmentTemplates {
  readonly #fragments: { name: string; fragment: Fragment }[];

  /** Throws a TemplateError (liquidjs's message) for a string that is not a template. */
  constructor(fragments: Record<string, { value: unknown } | null>) {
    this.#fragments = Object.keys(fragments)
      .filter((name) => fragments[name] !== null)
      .sort()
      .map((name) => ({ name, fragment: new Fragment(fragments[name]!.value) }));
  }

  get size(): number {
    return this.#fragments.length;
  }

  /** The fragments that render in `scope`, by name. */
  renderAll(scope: Record<string, unknown>): RenderedFragment[] {
    const out: RenderedFragment[] = [];
    for (const { name, fragment } of this.#fragments) {
      try {
        out.push({ name, value: fragment.render(scope) });
      } catch (err) {
        // a missing variable: this fragment does not apply
        if (!(err instanceof FragmentError)) throw err;
      }
    }
    return out;
  }
}
