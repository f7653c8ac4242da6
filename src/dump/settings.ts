// Settings read from a dump (an index's settings.json, or a settings task's payload) as the settings
// patch Muninn stores: parsed as `PATCH /settings` bodies are, every experimental setting allowed,
// settings Muninn does not know set aside.
import { parseSettingsPatch, SETTING_NAMES } from '../api/settings/index.ts';
import { DumpError } from './dates.ts';

const ALL_FEATURES = { chatCompletions: true, foreignKeys: true, compositeEmbedders: true, multimodal: true };

/** The patch, and the names of the settings left out; throws a `DumpError` when a known setting is invalid. */
export function settingsFromDump(settings: Record<string, unknown>): { patch: Record<string, unknown>; unknown: string[] } {
  const known: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(settings)) {
    if ((SETTING_NAMES as readonly string[]).includes(key)) known[key] = value;
    else unknown.push(key);
  }
  try {
    return { patch: parseSettingsPatch(known, { features: ALL_FEATURES }) as Record<string, unknown>, unknown };
  } catch (err) {
    throw new DumpError((err as Error).message);
  }
}
