// Validation that needs the stored settings: Meilisearch detects these while processing the
// task (HTTP was 202), so they fail the task, with milli's ``Index `uid`: `` prefix.
import { ApiError } from '../errors/index.ts';
import { applyPatch } from './apply.ts';
import { checkMergedEmbedders } from './embedders.ts';
import { minWordSizeMessage } from './parse-values.ts';
import type { Settings, SettingsPatch } from './types.ts';

export interface TaskContext {
  /** Prefixes messages with ``Index `<uid>`: `` when given. */
  indexUid?: string;
}

/**
 * The in-task checks of a settings update, against the settings it applies to:
 * `minWordSizeForTypos` ordering completed by stored values, embedder configurations after the
 * merge (mandatory fields, source/field compatibility, count, binary quantization), chat
 * `documentTemplateMaxBytes` of zero. Throws the ApiError the task fails with.
 */
export function checkSettingsAgainstIndex(current: Settings, patch: SettingsPatch, ctx: TaskContext = {}): void {
  try {
    runChecks(current, patch);
  } catch (err) {
    if (err instanceof ApiError && ctx.indexUid !== undefined) throw new ApiError(err.code, `Index \`${ctx.indexUid}\`: ${err.message}`);
    throw err;
  }
}

function runChecks(current: Settings, patch: SettingsPatch): void {
  const after = applyPatch(current, patch);
  if (patch.typoTolerance?.minWordSizeForTypos != null) {
    const { oneTypo, twoTypos } = after.typoTolerance.minWordSizeForTypos;
    if (oneTypo > twoTypos) throw new ApiError('invalid_settings_typo_tolerance', minWordSizeMessage(oneTypo, twoTypos));
  }
  if (patch.embedders) {
    const touched = Object.entries(patch.embedders).filter(([, e]) => e !== null).map(([name]) => name);
    checkMergedEmbedders(current.embedders, after.embedders, touched);
  }
  if (patch.chat?.documentTemplateMaxBytes === 0) {
    throw new ApiError('invalid_settings_index_chat', '`.chat.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero');
  }
}
