// API key actions (auth-keys.md §3): the exact list, the wildcard expansion used for
// authorization, and the actions an index-scoped key may not hold.

/** Every action, in Meilisearch's declaration order (used verbatim in the unknown-action message). */
export const ACTIONS = [
  '*',
  'search',
  'documents.*',
  'documents.add',
  'documents.get',
  'documents.delete',
  'indexes.*',
  'indexes.create',
  'indexes.get',
  'indexes.update',
  'indexes.delete',
  'indexes.swap',
  'tasks.*',
  'tasks.cancel',
  'tasks.delete',
  'tasks.get',
  'settings.*',
  'settings.get',
  'settings.update',
  'stats.*',
  'stats.get',
  'metrics.*',
  'metrics.get',
  'dumps.*',
  'dumps.create',
  'snapshots.*',
  'snapshots.create',
  'version',
  'keys.create',
  'keys.get',
  'keys.update',
  'keys.delete',
  'experimental.get',
  'experimental.update',
  'export',
  'network.get',
  'network.update',
  'chatCompletions',
  'chats.*',
  'chats.get',
  'chats.delete',
  'chatsSettings.*',
  'chatsSettings.get',
  'chatsSettings.update',
  '*.get',
  'webhooks.get',
  'webhooks.update',
  'webhooks.delete',
  'webhooks.create',
  'webhooks.*',
  'indexes.compact',
  'fields.post',
  'tasks.compact',
  'dynamicSearchRules.get',
  'dynamicSearchRules.create',
  'dynamicSearchRules.update',
  'dynamicSearchRules.delete',
  'dynamicSearchRules.*',
] as const;

export type Action = (typeof ACTIONS)[number];

const ACTION_SET: ReadonlySet<string> = new Set(ACTIONS);

export function isAction(value: string): value is Action {
  return ACTION_SET.has(value);
}

/** The "read" actions granted by `*.get` (not `keys.get`, not `chatCompletions`). */
export const READ_ACTIONS: readonly Action[] = [
  'search',
  'documents.get',
  'export',
  'indexes.get',
  'tasks.get',
  'settings.get',
  'stats.get',
  'metrics.get',
  'version',
  'experimental.get',
  'network.get',
  'chats.get',
  'chatsSettings.get',
  'webhooks.get',
  'fields.post',
  'dynamicSearchRules.get',
];

/**
 * What each wildcard grants. A wildcard other than `*` grants only the concrete actions listed,
 * never itself: a key holding `documents.*` does not hold the literal `documents.*` action
 * (only `*` does — the edit-documents-by-function quirk).
 */
export const WILDCARDS: Readonly<Record<string, readonly Action[]>> = {
  // every action including literal wildcards such as `documents.*`, except the literal `*.get`
  '*': ACTIONS.filter((a) => a !== '*.get'),
  '*.get': READ_ACTIONS,
  'documents.*': ['documents.add', 'documents.get', 'documents.delete'],
  'indexes.*': ['indexes.create', 'indexes.get', 'indexes.update', 'indexes.delete', 'indexes.swap', 'indexes.compact'],
  'tasks.*': ['tasks.get', 'tasks.delete', 'tasks.cancel', 'tasks.compact'],
  'settings.*': ['settings.get', 'settings.update'],
  'stats.*': ['stats.get'],
  'metrics.*': ['metrics.get'],
  'dumps.*': ['dumps.create'],
  'snapshots.*': ['snapshots.create'],
  'chats.*': ['chats.get', 'chats.delete'],
  'chatsSettings.*': ['chatsSettings.get', 'chatsSettings.update'],
  'webhooks.*': ['webhooks.get', 'webhooks.update', 'webhooks.delete', 'webhooks.create'],
  'dynamicSearchRules.*': [
    'dynamicSearchRules.get',
    'dynamicSearchRules.create',
    'dynamicSearchRules.update',
    'dynamicSearchRules.delete',
  ],
};

/**
 * Actions an index-scoped key (indexes neither containing `*` nor empty) may not contain, nor be
 * granted through `*` or `*.get` (authorize.ts step 7).
 */
export const GLOBAL_ACTIONS: readonly Action[] = [
  'metrics.*',
  'metrics.get',
  'dumps.*',
  'dumps.create',
  'snapshots.*',
  'snapshots.create',
  'version',
  'keys.create',
  'keys.get',
  'keys.update',
  'keys.delete',
  'experimental.get',
  'experimental.update',
  'export',
  'network.get',
  'network.update',
  'chats.*',
  'chats.get',
  'chats.delete',
  'chatsSettings.*',
  'chatsSettings.get',
  'chatsSettings.update',
  'webhooks.get',
  'webhooks.update',
  'webhooks.delete',
  'webhooks.create',
  'webhooks.*',
  'dynamicSearchRules.get',
  'dynamicSearchRules.create',
  'dynamicSearchRules.update',
  'dynamicSearchRules.delete',
  'dynamicSearchRules.*',
  'tasks.compact',
];

const GLOBAL_SET: ReadonlySet<string> = new Set(GLOBAL_ACTIONS);

export function isGlobalAction(action: string): boolean {
  return GLOBAL_SET.has(action);
}

/** The `keys.*` management actions (their routes need a master key to exist at all). */
export function isKeysAction(action: string): boolean {
  return action === 'keys.create' || action === 'keys.get' || action === 'keys.update' || action === 'keys.delete';
}

/** The set of actions a key holding `actions` is granted (wildcards replaced by what they grant). */
export function expandActions(actions: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const action of actions) {
    const granted = Object.hasOwn(WILDCARDS, action) ? WILDCARDS[action] : undefined;
    if (granted) for (const g of granted) out.add(g);
    else out.add(action);
  }
  return out;
}
