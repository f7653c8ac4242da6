// The scanner: one pass over the UTF-16 code units of a text with a class table, cutting it the
// way charabia does (groups of one script → separator/dictionary matches → chunks → words) and
// numbering words the way milli's `process_tokens` does. See tokenizer.ts for the whole picture.

import * as classes from './char-classes.ts';
import type { CharClasses, PatternInfo } from './char-classes.ts';
import * as norm from './normalize.ts';
import * as seps from './separators.ts';
import * as sc from './scripts.ts';
import * as loc from './locales.ts';
import * as dict from './dictionary-segmenter.ts';
import * as utf8 from './utf8.ts';
import type { LanguagePlan } from './locales.ts';
import type { Segment, Token } from './types.ts';

// Imported bindings are read through getters once compiled (tsx): copy what the hot loop
// touches into module constants.
const C_ASCII_OTHER = classes.C_ASCII_OTHER;
const C_UPPER = classes.C_UPPER;
const C_SOFT = classes.C_SOFT;
const C_SLOW = classes.C_SLOW;
const C_HARD = classes.C_HARD;
const C_HIGH = classes.C_HIGH;
const C_PATTERN = classes.C_PATTERN;
const K_SOFT = classes.K_SOFT;
const K_HARD = classes.K_HARD;
const K_STOP = classes.K_STOP;
const classifyForm = norm.classifyForm;
const lossyForm = norm.lossyForm;
const classifyFormByChar = norm.classifyFormByChar;
const normalizeByChar = norm.normalizeByChar;
const HARD_FORMS = seps.HARD_SEPARATORS;
const SCRIPT_OF_UNIT = sc.SCRIPT_OF_UNIT;
const OTHER = sc.OTHER;
const LATIN = sc.LATIN;
const CJ = sc.CJ;
const THAI = sc.THAI;
const KHMER = sc.KHMER;
const isKana = sc.isKana;
const LANG_NONE = loc.LANG_NONE;
const LANG_JPN = loc.LANG_JPN;
const LANG_CMN = loc.LANG_CMN;
const LANG_SWE = loc.LANG_SWE;
const isNumberLike = dict.isNumberLike;
const segmentRun = dict.segmentRun;
const utf8Length = utf8.utf8Length;
const firstScript = sc.firstScript;

/** Words longer than this many UTF-8 bytes are not indexed (documents.md §2.7). */
export const MAX_WORD_BYTES = 250;
/** Gap before a word that follows a hard separator (milli `MAX_DISTANCE`). */
export const HARD_GAP = 8;

const P_NONE = 0;
const P_WORD = 1;
const P_SOFT = 2;
const P_HARD = 3;

export class Scanner {
  private text = '';
  private tokens: Token[] | null = null;
  private segs: Segment[] | null = null;
  private position = 0;
  private prev = P_NONE;
  private started = false;
  private cjLang = LANG_NONE;
  // scanning state (see `fastLoop`)
  private group = OTHER;
  private extra = 0;
  private cs = -1; // start of the pending chunk, -1 if none
  private cx = 0; // `extra` at the chunk start
  private slow = false; // the chunk needs the full normalisation
  private upper = false; // the chunk has A-Z
  private readonly ends: number[] = [];

  constructor(
    private readonly cc: CharClasses,
    private readonly stopWords: ReadonlySet<string>,
    private readonly plan: LanguagePlan,
  ) {}

  /** Cuts `text`; fills `tokens` (index words and stop words) and/or `segments` (everything). */
  run(text: string, firstPosition: number, tokens: Token[] | null, segments: Segment[] | null): void {
    this.text = text;
    this.tokens = tokens;
    this.segs = segments;
    this.position = firstPosition;
    this.prev = P_NONE;
    this.started = false;
    // the first group takes the first script of the text (charabia attaches leading digits,
    // symbols... to it); after that, a character of another script starts a new group
    this.group = firstScript(text, 0);
    if (this.group === CJ) this.cjLang = this.cjLanguageAt(0);
    this.extra = 0;
    this.cs = -1;
    if (segments === null) this.fastLoop(text, this.cc.cls);
    else this.general(text, 0, false);
    this.text = '';
    this.tokens = null;
    this.segs = null;
  }

  // Hot loop of `tokenize`: an ASCII word between one-character separators is cut, numbered
  // and pushed inline, on locals. Anything else syncs the locals to the fields and takes the
  // general path until the next separator; `segments` uses the general path throughout, and
  // tests check that both agree. Byte offsets are `index + extra`, where `extra` counts the
  // bytes beyond one per code unit seen so far (only non-ASCII characters add to it).
  private fastLoop(text: string, cls: Uint8Array): void {
    const n = text.length;
    const tokens = this.tokens!;
    const stopWords = this.stopWords.size > 0 ? this.stopWords : null;
    let group = this.group;
    let extra = this.extra;
    let position = this.position;
    let prev = this.prev;
    let started = this.started;
    let i = 0;
    while (i < n) {
      const u = text.charCodeAt(i);
      const k = cls[u]!;
      if (k <= C_UPPER && (k === C_ASCII_OTHER || group === LATIN)) {
        const s = i;
        let upper = k === C_UPPER;
        i++;
        for (; i < n; i++) {
          const k2 = cls[text.charCodeAt(i)]!;
          if (k2 > C_UPPER || (k2 !== C_ASCII_OTHER && group !== LATIN)) break;
          if (k2 === C_UPPER) upper = true;
        }
        const next = i < n ? cls[text.charCodeAt(i)]! : C_SOFT;
        if (next === C_SOFT || next === C_HARD) {
          // a whole ASCII word: emit it here (same rules as `emit`)
          const raw = text.slice(s, i);
          const stop = stopWords !== null && stopWords.has(raw);
          if (prev === P_HARD) position += HARD_GAP;
          else if (prev !== P_NONE) position += 1;
          prev = P_WORD;
          started = true;
          if (stop || raw.length <= MAX_WORD_BYTES) {
            tokens.push({
              word: upper ? raw.toLowerCase() : raw, position, start: s + extra, end: i + extra,
              charStart: s, charEnd: i, isStopWord: stop,
            });
          }
          continue;
        }
        // the word goes on with other characters: open the chunk and let `step` continue it
        this.group = group; this.extra = extra; this.position = position; this.prev = prev; this.started = started;
        this.cs = s; this.cx = extra; this.slow = false; this.upper = upper;
        i = this.general(text, i, true);
        group = this.group; extra = this.extra; position = this.position; prev = this.prev; started = this.started;
        continue;
      }
      if (k === C_SOFT || k === C_HARD) {
        if (u >= 0x80) extra += u < 0x800 ? 1 : 2;
        if (started) {
          if (k === C_HARD) prev = P_HARD;
          else if (prev !== P_HARD) prev = P_SOFT;
        }
        i++;
        continue;
      }
      this.group = group; this.extra = extra; this.position = position; this.prev = prev; this.started = started;
      this.cs = -1;
      i = this.general(text, i, true);
      group = this.group; extra = this.extra; position = this.position; prev = this.prev; started = this.started;
    }
    this.group = group; this.extra = extra; this.position = position; this.prev = prev; this.started = started;
  }

  /**
   * The general path from `i`. With `toFast`, returns at the first separator that leaves no
   * chunk pending (after handling it if it closed one); otherwise runs to the end.
   */
  private general(text: string, i: number, toFast: boolean): number {
    const cls = this.cc.cls;
    const n = text.length;
    while (i < n) {
      const u = text.charCodeAt(i);
      const k = cls[u]!;
      if (k === C_SOFT || k === C_HARD) {
        const closing = this.cs >= 0;
        if (toFast && !closing) return i;
        if (closing) this.closeChunk(i);
        const b = i + this.extra;
        if (u >= 0x80) this.extra += u < 0x800 ? 1 : 2;
        this.separator(k === C_HARD, null, i, i + 1, b, i + 1 + this.extra);
        i++;
        if (toFast) return i;
      } else if (this.cs >= 0 && k <= C_UPPER && (k === C_ASCII_OTHER || this.group === LATIN)) {
        if (k === C_UPPER) this.upper = true;
        i++;
      } else if (this.cs >= 0 && k === C_SLOW && (SCRIPT_OF_UNIT[u] === this.group || SCRIPT_OF_UNIT[u] === OTHER)) {
        // the chunk goes on in the same script (the common case of non-ASCII text)
        this.slow = true;
        this.extra += u < 0x80 ? 0 : u < 0x800 ? 1 : 2;
        i++;
      } else {
        i = this.step(text, i, u, k);
      }
    }
    if (this.cs >= 0) this.closeChunk(n);
    return n;
  }

  private openChunk(i: number): void {
    this.cs = i;
    this.cx = this.extra;
    this.slow = false;
    this.upper = false;
  }

  private closeChunk(e: number): void {
    const cs = this.cs;
    this.cs = -1;
    this.chunk(cs, e, cs + this.cx, e + this.extra, this.group, this.slow, this.upper);
  }

  /** Everything but plain ASCII and simple separators: patterns, other scripts, surrogates. */
  private step(text: string, i: number, u: number, k: number): number {
    if (k === C_PATTERN) {
      const cc = this.cc;
      if (cc.match(text, i, this.group)) {
        if (this.cs >= 0) this.closeChunk(i);
        const end = i + cc.matchLength;
        const b = i + this.extra;
        const be = b + utf8Length(text, i, end);
        this.extra = be - end;
        if (cc.matchScript !== this.group) this.enterGroup(cc.matchScript, i);
        this.pattern(cc.matchInfo!, i, end, b, be, this.group);
        return end;
      }
      k = cc.base[u]!;
      if (k === C_SOFT || k === C_HARD) {
        if (this.cs >= 0) this.closeChunk(i);
        const b = i + this.extra;
        if (u >= 0x80) this.extra += u < 0x800 ? 1 : 2;
        this.separator(k === C_HARD, null, i, i + 1, b, i + 1 + this.extra);
        return i + 1;
      }
    }
    const s = k === C_ASCII_OTHER ? OTHER : k <= C_UPPER ? LATIN : SCRIPT_OF_UNIT[u]!;
    if (s !== OTHER && s !== this.group) {
      if (this.cs >= 0 && this.group !== OTHER) this.closeChunk(i);
      this.enterGroup(s, i);
    }
    if (this.cs < 0) this.openChunk(i);
    if (k <= C_UPPER) {
      if (k === C_UPPER) this.upper = true;
      return i + 1;
    }
    this.slow = true;
    if (k === C_HIGH) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        this.extra += 2;
        return i + 2;
      }
    }
    this.extra += u < 0x80 ? 0 : u < 0x800 ? 1 : 2;
    return i + 1;
  }

  private enterGroup(script: number, at: number): void {
    this.group = script;
    if (script === CJ) this.cjLang = this.cjLanguageAt(at);
  }

  /** Chinese or Japanese for the CJ group starting at `from`: Japanese if it has kana. */
  private cjLanguageAt(from: number): number {
    const text = this.text;
    for (let i = from; i < text.length; i++) {
      const u = text.charCodeAt(i);
      if (isKana(u)) return this.plan.cjWithKana;
      const s = SCRIPT_OF_UNIT[u]!;
      if (s !== OTHER && s !== CJ) break;
    }
    return this.plan.cjWithoutKana;
  }

  private langOf(script: number): number {
    return script === CJ ? this.cjLang : script === LATIN ? this.plan.latin : LANG_NONE;
  }

  /** A run between separators inside one group: one word, or several for CJ/Thai/Khmer. */
  private chunk(s: number, e: number, bs: number, be: number, script: number, slow: boolean, upper: boolean): void {
    if (script === CJ || script === THAI || script === KHMER) {
      const locale = script === THAI ? 'th' : script === KHMER ? 'km'
        : this.cjLang === LANG_JPN ? 'ja' : this.cjLang === LANG_CMN ? 'zh' : null;
      if (locale !== null && !isNumberLike(this.text.slice(s, e))) {
        const ends = this.ends;
        ends.length = 0;
        segmentRun(this.text, s, e, locale, ends);
        let ps = s;
        let pbs = bs;
        for (const pe of ends) {
          const pbe = pbs + utf8Length(this.text, ps, pe);
          this.word(ps, pe, pbs, pbe, script, true, false);
          ps = pe;
          pbs = pbe;
        }
        return;
      }
    }
    this.word(s, e, bs, be, script, slow, upper);
  }

  private word(s: number, e: number, bs: number, be: number, script: number, slow: boolean, upper: boolean): void {
    const raw = this.text.slice(s, e);
    if (!slow) {
      // printable ASCII: NFKD and every normaliser but lowercase are identities, and it
      // cannot be a separator (the pattern pass would have matched it)
      const stop = this.stopWords.size > 0 && this.stopWords.has(raw);
      this.emit(stop, upper ? raw.toLowerCase() : raw, false, s, e, bs, be, script);
      return;
    }
    const lang = this.langOf(script);
    const byChar = script !== CJ && lang !== LANG_SWE;
    const stops = this.stopWords.size > 0;
    // the classification form is only needed for stop words and separators (short forms; a
    // character-wise form is never shorter than the word)
    const needForm = stops || raw.length <= this.cc.maxSeparatorLength;
    let form = needForm ? (byChar ? classifyFormByChar(raw) : null) ?? classifyForm(raw, lang) : '';
    if (stops && this.stopWords.has(form)) {
      this.emit(true, lossyForm(form, script, lang), true, s, e, bs, be, script);
    } else if (needForm && form.length <= this.cc.maxSeparatorLength && this.cc.separatorSet.has(form)) {
      this.separator(HARD_FORMS.has(form), form, s, e, bs, be);
    } else {
      let lemma = byChar ? normalizeByChar(raw, script) : null;
      if (lemma === null) {
        if (!needForm) form = classifyForm(raw, lang);
        lemma = lossyForm(form, script, lang);
      }
      this.emit(false, lemma, true, s, e, bs, be, script);
    }
  }

  private pattern(info: PatternInfo, s: number, e: number, bs: number, be: number, script: number): void {
    if (info.kind === K_SOFT || info.kind === K_HARD) {
      this.separator(info.kind === K_HARD, info.form, s, e, bs, be);
      return;
    }
    const lemma = lossyForm(info.form, script, this.langOf(script));
    this.emit(info.kind === K_STOP, lemma, true, s, e, bs, be, script);
  }

  /** A word or stop word token: position as milli's `process_tokens`, then output. */
  private emit(stop: boolean, lemma: string, mayTrim: boolean, s: number, e: number, bs: number, be: number, script: number): void {
    this.started = true;
    let position = -1;
    if (lemma.length > 0) {
      const prev = this.prev;
      if (prev === P_HARD) this.position += HARD_GAP;
      else if (prev !== P_NONE) this.position += 1;
      this.prev = P_WORD;
      position = this.position;
    }
    const word = mayTrim ? lemma.trim() : lemma;
    // ASCII words: one byte per unit; others: at most 3 bytes per unit, so short ones fit
    const fits = mayTrim ? word.length <= 83 || utf8Length(word) <= MAX_WORD_BYTES : word.length <= MAX_WORD_BYTES;
    const indexed = position >= 0 && !stop && word.length > 0 && fits;
    if (this.tokens !== null && (indexed || (stop && position >= 0))) {
      this.tokens.push({ word, position, start: bs, end: be, charStart: s, charEnd: e, isStopWord: stop });
    }
    if (this.segs !== null) {
      this.segs.push({
        kind: stop ? 'stopWord' : 'word', hard: false, lemma, position, indexed,
        start: bs, end: be, charStart: s, charEnd: e, script, lang: this.langOf(script),
      });
    }
  }

  private separator(hard: boolean, form: string | null, s: number, e: number, bs: number, be: number): void {
    if (this.started) {
      if (hard) this.prev = P_HARD;
      else if (this.prev !== P_HARD) this.prev = P_SOFT;
    }
    if (this.segs !== null) {
      const lemma = form ?? classifyForm(this.text.slice(s, e), LANG_NONE);
      this.segs.push({
        kind: 'separator', hard, lemma, position: -1, indexed: false,
        start: bs, end: be, charStart: s, charEnd: e, script: OTHER, lang: LANG_NONE,
      });
    }
  }
}
