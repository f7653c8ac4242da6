// The settings of an index as stored in its `main` table (the API shape), defaults until a
// settings task has run.
import type { Index } from '../../engine/index/index.ts';
import { defaultSettings, type Settings } from './types.ts';

export function settingsOf(index: Index): Settings {
  return (index.getMain('settings') as Settings | undefined) ?? defaultSettings();
}
