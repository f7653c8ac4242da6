// POST /render-template (experimental `renderRoute`; the key needs both `settings.get` and
// `documents.get`): an embedder's document template, or an inline one, rendered with a stored or
// inline document, as indexing renders it (api/render has the body and its errors).
import type { FastifyInstance } from 'fastify';
import {
  embedderNotFound, parseRenderBody, renderDocumentNotFound, renderFeatureNotEnabled, resolveRenderRequest, templateIndexNotFound,
  templateParsingError, templateRenderingError,
} from '../../api/render/index.ts';
import { settingsOf } from '../../api/settings/stored.ts';
import { sourceOf, templateSearchable } from '../../api/settings/index.ts';
import { ApiError } from '../../api/errors/index.ts';
import { DEFAULT_DOCUMENT_TEMPLATE, DocumentTemplate, TemplateError } from '../../engine/vector/template.ts';
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
    const open = (uid: string, what: 'template' | 'input'): Index => {
      const index = instance.queue.indexUuid(uid) === undefined ? undefined : instance.indexes.get(uid);
      if (index === undefined) {
        if (what === 'template') throw templateIndexNotFound(uid);
        throw new ApiError('index_not_found', `Cannot open index \`${uid}\`: Index \`${uid}\` not found.`);
      }
      if (!req.auth.canSeeIndex(uid)) throw new ApiError('invalid_api_key', 'The provided API key is invalid.');
      return index;
    };

    let text: string;
    let searchableOf: Index | null = null;
    if (request.template.kind === 'documentTemplate') {
      const { indexUid, embedder } = request.template;
      const index = open(indexUid, 'template');
      const e = settingsOf(index).embedders[embedder] as Record<string, unknown> | undefined;
      const source = e === undefined ? undefined : sourceOf(e as never);
      if (e === undefined || source === 'userProvided' || source === 'composite') throw embedderNotFound(embedder, indexUid);
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
    let doc: Record<string, unknown>;
    if (input.kind === 'indexDocument') {
      const index = open(input.indexUid, 'input');
      const found = index.document(input.id);
      if (found === undefined) throw renderDocumentNotFound(input.id, input.indexUid);
      doc = found;
      searchableOf ??= index;
    } else doc = input.inline;
    const isSearchable = templateSearchable(searchableOf === null ? null : settingsOf(searchableOf).searchableAttributes);
    try {
      return { template: text, rendered: template.render(doc, isSearchable) };
    } catch (err) {
      if (err instanceof TemplateError) throw templateRenderingError(err.message);
      throw err;
    }
  });
}
