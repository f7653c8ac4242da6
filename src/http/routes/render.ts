// POST /render-template (experimental `renderRoute`; the key needs both `settings.get` and
// `documents.get`): an embedder's document template or fragment, or an inline one, rendered with a
// stored or inline document (or, for fragments, an inline search), as indexing and search render
// them (api/render has the body and its errors).
import type { FastifyInstance } from 'fastify';
import {
  documentTemplateWithSearch, embedderNotFound, fragmentNotFound, fragmentParsingError, fragmentRenderingError, parseRenderBody,
  renderDocumentNotFound, renderFeatureNotEnabled, resolveRenderRequest, templateIndexNotFound, templateParsingError,
  templateRenderingError, noDocumentTemplate, type RenderInput,
} from '../../api/render/index.ts';
import { settingsOf } from '../../api/settings/stored.ts';
import { sourceOf, templateSearchable, usesFragments } from '../../api/settings/index.ts';
import { ApiError } from '../../api/errors/index.ts';
import { DEFAULT_DOCUMENT_TEMPLATE, DocumentTemplate, TemplateError, docDrop, templateValue } from '../../engine/vector/template.ts';
import { Fragment, FragmentError } from '../../engine/vector/fragments.ts';
import type { Index } from '../../engine/index/index.ts';
import type { HttpContext } from '../context.ts';
import { readJson } from '../body.ts';

export function registerRenderRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;
  app.post('/render-template', { config: { auth: { action: 'settings.get', alsoAction: 'documents.get' } } }, async (req) => {
    const raw = parseRenderBody(await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText }));
    const features = instance.features.get();
    if (!features.renderRoute) throw renderFeatureNotEnabled();
    const request = resolveRenderRequest(raw, features);
    const documentOf = (input: Exclude<RenderInput, null | { kind: 'inlineSearch' }>): Record<string, unknown> => {
      if (input.kind === 'inlineDocument') return input.inline;
      const found = open(input.indexUid, 'input').document(input.id);
      if (found === undefined) throw renderDocumentNotFound(input.id, input.indexUid);
      return found;
    };
    const open = (uid: string, what: 'template' | 'input'): Index => {
      const index = instance.queue.indexUuid(uid) === undefined ? undefined : instance.indexes.get(uid);
      if (index === undefined) {
        if (what === 'template') throw templateIndexNotFound(uid);
        throw new ApiError('index_not_found', `Cannot open index \`${uid}\`: Index \`${uid}\` not found.`);
      }
      if (!req.auth.canSeeIndex(uid)) throw new ApiError('invalid_api_key', 'The provided API key is invalid.');
      return index;
    };

    if (request.template.kind === 'documentTemplate' || request.template.kind === 'inlineDocumentTemplate') {
      let text: string;
      let searchableOf: Index | null = null;
      if (request.template.kind === 'documentTemplate') {
        const { indexUid, embedder } = request.template;
        const index = open(indexUid, 'template');
        const e = settingsOf(index).embedders[embedder] as Record<string, unknown> | undefined;
        const source = e === undefined ? undefined : sourceOf(e as never);
        if (e === undefined || source === 'userProvided' || source === 'composite') throw embedderNotFound(embedder, indexUid);
        if (usesFragments(e)) throw noDocumentTemplate(embedder, indexUid);
        text = typeof e.documentTemplate === 'string' ? e.documentTemplate : DEFAULT_DOCUMENT_TEMPLATE;
        searchableOf = index;
      } else text = request.template.inline;

      let template: DocumentTemplate;
      try {
        // Meilisearch 1.50's route does not cut the text to documentTemplateMaxBytes
        template = new DocumentTemplate(text, Number.MAX_SAFE_INTEGER);
      } catch (err) {
        if (err instanceof TemplateError) throw templateParsingError(err.message);
        throw err;
      }
      const input = request.input;
      if (input === null) return { template: text, rendered: null };
      if (input.kind === 'inlineSearch') throw documentTemplateWithSearch();
      const doc = documentOf(input);
      searchableOf ??= input.kind === 'indexDocument' ? open(input.indexUid, 'input') : null;
      const isSearchable = templateSearchable(searchableOf === null ? null : settingsOf(searchableOf).searchableAttributes);
      try {
        return { template: text, rendered: template.render(doc, isSearchable) };
      } catch (err) {
        if (err instanceof TemplateError) throw templateRenderingError(err.message);
        throw err;
      }
    }

    // fragments: an embedder's, or an inline one
    let value: unknown;
    if (request.template.kind === 'inlineFragment') value = request.template.inline;
    else {
      const { kind, indexUid, embedder, fragment } = request.template;
      const index = open(indexUid, 'template');
      const e = settingsOf(index).embedders[embedder] as Record<string, unknown> | undefined;
      if (e === undefined && kind === 'indexingFragment') throw embedderNotFound(embedder, indexUid);
      const fragments = e?.[kind === 'indexingFragment' ? 'indexingFragments' : 'searchFragments'] as Record<string, { value: unknown } | null> | undefined;
      const found = fragments?.[fragment];
      if (found === undefined || found === null) throw fragmentNotFound(e === undefined || kind === 'indexingFragment' ? 'indexing' : 'search', fragment, embedder, indexUid);
      value = found.value;
    }
    let compiled: Fragment;
    try {
      compiled = new Fragment(value);
    } catch (err) {
      if (err instanceof TemplateError) throw fragmentParsingError(err.message);
      throw err;
    }
    const input = request.input;
    if (input === null) return { template: value, rendered: null };
    const scope: Record<string, unknown> = {};
    if (input.kind === 'inlineSearch') {
      if (input.inline.q !== undefined) scope.q = input.inline.q;
      if (input.inline.media !== undefined) scope.media = templateValue(input.inline.media);
    } else scope.doc = docDrop(documentOf(input));
    try {
      return { template: value, rendered: compiled.render(scope) };
    } catch (err) {
      if (err instanceof FragmentError) throw fragmentRenderingError(err.path, err.message);
      throw err;
    }
  });
}
