// The `details` of a settingsUpdate task (tasks.md §3): the patch as Meilisearch serializes its
// `Settings<Unchecked>`: declaration key order, only the keys sent, reset keys as `null` except
// the wildcard settings (displayed/searchable), whose reset serializes as `["*"]`; embedder
// `apiKey` values masked.
import { maskSettingsSecrets } from '../tasks/details.ts';
import { EMBEDDER_FIELDS } from './embedder-fields.ts';
import { isObj, type Obj } from './deserr.ts';
import { SETTING_NAMES, type SettingsPatch } from './types.ts';
import { setKey } from '../../engine/json.ts';

/** The task details of a settings update, from its validated patch. */
export function settingsTaskDetails(patch: SettingsPatch): Record<string, unknown> {
  const src = patch as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    if (!(name in src) || src[name] === undefined) continue;
    const value = src[name];
    if (name === 'displayedAttributes' || name === 'searchableAttributes') out[name] = value === null ? ['*'] : structuredClone(value);
    else if (name === 'embedders' && isObj(value)) out[name] = embeddersDetails(value);
    else out[name] = structuredClone(value);
  }
  return maskSettingsSecrets(out);
}

function embeddersDetails(map: Obj): Obj {
  const out: Obj = {};
  for (const [name, e] of Object.entries(map)) setKey(out, name, isObj(e) ? orderedEmbedder(e) : null);
  return out;
}

function orderedEmbedder(e: Obj): Obj {
  const out: Obj = {};
  for (const f of EMBEDDER_FIELDS) {
    if (!(f in e)) continue;
    out[f] = (f === 'searchEmbedder' || f === 'indexingEmbedder') && isObj(e[f]) ? orderedEmbedder(e[f] as Obj) : structuredClone(e[f]);
  }
  return out;
}
