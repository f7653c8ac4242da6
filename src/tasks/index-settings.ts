// The settings of an index as the API shapes them, kept in the index's main table.
import { defaultSettings, type Settings } from '../api/settings/index.ts';
import type { Index } from '../engine/index/index.ts';

/** The settings of an index (defaults until a settings task has run). */
export function storedSettings(index: Index): Settings {
  return (index.getMain('settings') as Settings | undefined) ?? defaultSettings();
}
