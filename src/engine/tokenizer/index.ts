// Public surface of the tokenizer (see tokenizer.ts for the pipeline).

export { Tokenizer, originalPrefixEnd } from './tokenizer.ts';
export type { Segment, Token, TokenizerConfig } from './types.ts';
export { MAX_WORD_BYTES, HARD_GAP } from './scanner.ts';
export { utf8Length } from './utf8.ts';
export { DEFAULT_SEPARATORS, HARD_SEPARATORS } from './separators.ts';
export { isCjk, scriptOf, SCRIPT_NAMES } from './scripts.ts';
export { toIso3 } from './locales.ts';
