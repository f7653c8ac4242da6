// Routes of experimental features Muninn does not build (stats-health.md §5): `/network`
// (remote federation), `/chats` (chat completions) and `POST /indexes/{uid}/documents/edit`
// (editing documents with a Rhai function). They carry Meilisearch's actions, so keys
// are checked as there, and answer Meilisearch's `feature_not_enabled` while the feature is off.
// With it on, Muninn answers as an instance with no remotes and no chat workspaces, and refuses
// to configure either (docs/compat.md).
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../api/errors/index.ts';
import { checkParams, intParam } from '../../api/validate/query.ts';
import { checkFields, expectObject, missingField, typeError } from '../../api/validate/body.ts';
import { readJson } from '../body.ts';
import type { HttpContext } from '../context.ts';
import { query } from './indexes.ts';

const NETWORK = 'https://github.com/orgs/meilisearch/discussions/805';
const CHATS = 'https://github.com/orgs/meilisearch/discussions/835';

const gate = (what: string, feature: string, link: string) => new ApiError('feature_not_enabled', `${what} requires enabling the \`${feature}\` experimental feature. See ${link}`);
const unsupported = (what: string) => new ApiError('bad_request', `${what} is not supported by this version of Muninn.`);

export function registerExperimentalRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const features = () => ctx.instance.features.get();
  const network = () => {
    if (!features().network) throw gate('Using the /network route', 'network', NETWORK);
  };
  const chats = (what: string) => {
    if (!features().chatCompletions) throw gate(what, 'chat completions', CHATS);
  };
  const workspace = (params: unknown) => (params as { workspace: string }).workspace;

  // the body is checked as Meilisearch reads it, then the feature (before the index is looked up);
  // only a `*` key may call it (auth-keys.md: the route asks for the literal `documents.*`)
  app.post('/indexes/:indexUid/documents/edit', { config: { auth: { action: 'documents.*', indexParam: 'indexUid' } } }, async (req) => {
    const body = expectObject(await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText }));
    checkFields(body, { known: ['filter', 'context', 'function'] });
    if (!('function' in body)) throw missingField('function', 'missing_document_edition_function');
    if (typeof body.function !== 'string') throw typeError('.function', 'a string', body.function, 'invalid_document_edition_function_filter');
    if (!features().editDocumentsByFunction) throw gate('Using the documents edit route', 'edit documents by function', 'https://github.com/orgs/meilisearch/discussions/762');
    throw unsupported('Editing documents with a function');
  });

  app.get('/network', { config: { auth: { action: 'network.get' } } }, async () => {
    network();
    return { self: null, remotes: {}, shards: {}, leader: null, version: '00000000-0000-0000-0000-000000000000' };
  });
  app.patch('/network', { config: { auth: { action: 'network.update' } } }, async () => {
    network();
    throw unsupported('Configuring remote instances');
  });

  app.get('/chats', { config: { auth: { action: 'chats.get' } } }, async (req) => {
    const q = query(req);
    checkParams(q, ['offset', 'limit']);
    chats('listing the chats');
    return { results: [], offset: intParam(q, 'offset', 0, 'bad_request'), limit: intParam(q, 'limit', 20, 'bad_request'), total: 0 };
  });
  app.get('/chats/:workspace', { config: { auth: { action: 'chats.get' } } }, async (req) => {
    chats('displaying a chat');
    throw new ApiError('chat_not_found', `chat ${workspace(req.params)} not found`);
  });
  app.delete('/chats/:workspace', { config: { auth: { action: 'chats.delete' } } }, async (req) => {
    chats('deleting a chat');
    throw new ApiError('chat_not_found', `chat ${workspace(req.params)} not found`);
  });
  const settingsRoute = 'using the /chats/settings route';
  app.get('/chats/:workspace/settings', { config: { auth: { action: 'chatsSettings.get' } } }, async (req) => {
    chats(settingsRoute);
    throw new ApiError('chat_not_found', `Chat \`${workspace(req.params)}\` not found`);
  });
  app.delete('/chats/:workspace/settings', { config: { auth: { action: 'chatsSettings.update' } } }, async (req) => {
    chats(settingsRoute);
    throw new ApiError('chat_not_found', `Chat \`${workspace(req.params)}\` not found`);
  });
  app.patch('/chats/:workspace/settings', { config: { auth: { action: 'chatsSettings.update' } } }, async () => {
    chats(settingsRoute);
    throw unsupported('Configuring chat workspaces');
  });
  app.post('/chats/:workspace/chat/completions', { config: { auth: { action: 'chatCompletions' } } }, async () => {
    chats('using the /chats chat completions route');
    throw unsupported('Chat completions');
  });
}
