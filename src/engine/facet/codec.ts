// Binary values of the facet tables (docs/decisions/0004). Integers are little-endian u32,
// floats little-endian f64, strings UTF-8 prefixed by their u32 byte length, bitmaps portable.
//
//   level-0 string   origin id · original · bitmap
//   group (level≥1)  size · right bound (f64, or string) · bitmap
//   document record  (fid · length · n · f64×n · m · (normalized · original | SAME)×m)×fields
//   geo point        lat · lng
//   leaf cell        (id · lat · lng)×n, by id
import { Bitmap, bitmapFrom } from '../bitmap/index.ts';
import { compareUtf8 } from '../words/index.ts';

const SAME = 0xffffffff;

export type FacetKey = number | string;

function view(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? (bytes as unknown as Buffer) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A string value at level 0: its docids and the original spelling of `originId`. */
export interface StringEntry {
  originId: number;
  original: string;
  docids: Bitmap;
}

/** A level-0 string value; `docids` already in portable bytes. */
export function encodeStringEntry(e: { originId: number; original: string; docids: Uint8Array }): Buffer {
  const len = Buffer.byteLength(e.original, 'utf8');
  const b = Buffer.allocUnsafe(8 + len + e.docids.length);
  b.writeUInt32LE(e.originId, 0);
  b.writeUInt32LE(len, 4);
  b.write(e.original, 8, 'utf8');
  b.set(e.docids, 8 + len);
  return b;
}

export function decodeStringEntry(bytes: Uint8Array): StringEntry {
  const b = view(bytes);
  const len = b.readUInt32LE(4);
  return { originId: b.readUInt32LE(0), original: b.toString('utf8', 8, 8 + len), docids: bitmapFrom(b.subarray(8 + len)) };
}

/** A level-0 string value with its ids read in JS (`decodeIds`, the native bitmap for run containers). */
export function decodeStringEntryIds(bytes: Uint8Array): { originId: number; original: string; ids: number[] } {
  const b = view(bytes);
  const len = b.readUInt32LE(4);
  const docids = b.subarray(8 + len);
  return { originId: b.readUInt32LE(0), original: b.toString('utf8', 8, 8 + len), ids: decodeIds(docids) ?? bitmapFrom(docids).toArray() };
}

export function stringEntryDocids(bytes: Uint8Array): Bitmap {
  const b = view(bytes);
  return bitmapFrom(b.subarray(8 + b.readUInt32LE(4)));
}

/** A group of consecutive keys of the level below: how many, the greatest level-0 key, the union. */
export interface GroupHeader<K extends FacetKey> {
  size: number;
  right: K;
  /** where the bitmap starts */
  offset: number;
}

/** A group; `docids` already in portable bytes. */
export function encodeGroup(size: number, right: FacetKey, docids: Uint8Array): Buffer {
  let head: Buffer;
  if (typeof right === 'number') {
    head = Buffer.allocUnsafe(12);
    head.writeDoubleLE(right, 4);
  } else {
    const s = Buffer.from(right, 'utf8');
    head = Buffer.allocUnsafe(8 + s.length);
    head.writeUInt32LE(s.length, 4);
    s.copy(head, 8);
  }
  head.writeUInt32LE(size, 0);
  return Buffer.concat([head, docids]);
}

export function decodeGroupHeader<K extends FacetKey>(bytes: Uint8Array, numeric: boolean): GroupHeader<K> {
  const b = view(bytes);
  if (numeric) return { size: b.readUInt32LE(0), right: b.readDoubleLE(4) as K, offset: 12 };
  const len = b.readUInt32LE(4);
  return { size: b.readUInt32LE(0), right: b.toString('utf8', 8, 8 + len) as K, offset: 8 + len };
}

export function groupDocids(bytes: Uint8Array, header: GroupHeader<FacetKey>): Bitmap {
  return bitmapFrom(view(bytes).subarray(header.offset));
}

/** The values of one field in one document, sorted (numbers ascending, strings by UTF-8 bytes). */
export interface DocValues {
  numbers: number[];
  strings: string[];
  /** original spelling of each of `strings` */
  originals: string[];
}

/** The facet values of a document: per field id, its values. */
export type DocRecord = Map<number, DocValues>;

/** fid · byte length · values, per field (a reader skips the fields it does not want). */
export function encodeDocRecord(record: DocRecord): Buffer {
  const e = (shared ??= new DocRecordEncoder(4096));
  e.length = 0;
  for (const [fid, v] of record) e.field(fid, v.numbers, v.strings, v.originals);
  return Buffer.from(e.take());
}

let shared: DocRecordEncoder | undefined;

/**
 * Appends document records to one growing buffer: the bytes of `encodeDocRecord`, field by field
 * (values sorted here: numbers ascending, strings by UTF-8 bytes, each original after its string).
 */
export class DocRecordEncoder {
  #b: Buffer;
  #v: DataView;
  /** bytes written */
  length = 0;

  constructor(capacity = 64 * 1024) {
    // its own memory (not the shared pool): the buffer taken can be transferred
    this.#b = Buffer.allocUnsafeSlow(capacity);
    this.#v = new DataView(this.#b.buffer, this.#b.byteOffset, this.#b.byteLength);
  }

  /** Appends one field of the current record: distinct numbers and normalized strings, the strings' originals. */
  field(fid: number, numbers: readonly number[], strings: readonly string[], originals: readonly string[]): void {
    let nums = numbers;
    if (nums.length > 1) nums = [...nums].sort((a, b) => a - b);
    let order: number[] | null = null;
    if (strings.length > 1) order = strings.map((_, i) => i).sort((a, b) => compareUtf8(strings[a]!, strings[b]!));
    this.#reserve(16 + 8 * nums.length);
    const start = this.length;
    const v = this.#v;
    v.setUint32(start, fid, true);
    v.setUint32(start + 8, nums.length, true);
    let at = start + 12;
    for (const n of nums) {
      v.setFloat64(at, n, true);
      at += 8;
    }
    v.setUint32(at, strings.length, true);
    this.length = at + 4;
    for (let k = 0; k < strings.length; k++) {
      const i = order === null ? k : order[k]!;
      const s = strings[i]!;
      this.#string(s);
      if (originals[i] === s) {
        this.#reserve(4);
        this.#v.setUint32(this.length, SAME, true);
        this.length += 4;
      } else this.#string(originals[i]!);
    }
    this.#v.setUint32(start + 4, this.length - start - 8, true);
  }

  /** The bytes written so far (a view of the buffer, valid until the next write); starts over. */
  take(): Uint8Array {
    const out = this.#b.subarray(0, this.length);
    this.length = 0;
    return out;
  }

  /** The buffer holding the bytes written (to transfer; the encoder must not be used afterwards). */
  detach(): Uint8Array {
    const out = new Uint8Array(this.#b.buffer, this.#b.byteOffset, this.length);
    this.#b = Buffer.allocUnsafeSlow(0);
    this.#v = new DataView(this.#b.buffer, 0, 0);
    this.length = 0;
    return out;
  }

  /** length · UTF-8 bytes (ASCII copied by hand: most facet values are short ASCII strings). */
  #string(s: string): void {
    const n = s.length;
    this.#reserve(4 + 3 * n);
    const b = this.#b;
    const at = this.length + 4;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      b[at + i] = c;
    }
    const len = i === n ? n : b.write(s, at, 'utf8');
    this.#v.setUint32(this.length, len, true);
    this.length = at + len;
  }

  #reserve(bytes: number): void {
    if (this.length + bytes <= this.#b.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(this.#b.length * 2, this.length + bytes));
    this.#b.copy(bigger, 0, 0, this.length);
    this.#b = bigger;
    this.#v = new DataView(bigger.buffer, bigger.byteOffset, bigger.byteLength);
  }
}

/** The values of one field of a document record (undefined when it has none). */
export function docRecordField(bytes: Uint8Array, fid: number): DocValues | undefined {
  const b = view(bytes);
  for (let at = 0; at + 8 <= b.length; ) {
    const len = b.readUInt32LE(at + 4);
    if (b.readUInt32LE(at) === fid) return decodeDocValues(b.subarray(at + 8, at + 8 + len));
    at += 8 + len;
  }
  return undefined;
}

function decodeDocValues(b: Buffer): DocValues {
  const n = b.readUInt32LE(0);
  const numbers = new Array<number>(n);
  let at = 4;
  for (let i = 0; i < n; i++, at += 8) numbers[i] = b.readDoubleLE(at);
  const m = b.readUInt32LE(at);
  at += 4;
  const strings = new Array<string>(m);
  const originals = new Array<string>(m);
  for (let i = 0; i < m; i++) {
    const len = b.readUInt32LE(at);
    strings[i] = b.toString('utf8', at + 4, at + 4 + len);
    at += 4 + len;
    const olen = b.readUInt32LE(at);
    at += 4;
    if (olen === SAME) originals[i] = strings[i]!;
    else {
      originals[i] = b.toString('utf8', at, at + olen);
      at += olen;
    }
  }
  return { numbers, strings, originals };
}

export function encodePoint(lat: number, lng: number): Buffer {
  const b = Buffer.allocUnsafe(16);
  b.writeDoubleLE(lat, 0);
  b.writeDoubleLE(lng, 8);
  return b;
}

export function decodePoint(bytes: Uint8Array): [number, number] {
  const b = view(bytes);
  return [b.readDoubleLE(0), b.readDoubleLE(8)];
}

const POINT_BYTES = 20;

/** Points of a leaf cell: parallel arrays, by id. */
export interface CellPoints {
  ids: number[];
  lats: number[];
  lngs: number[];
}

export function encodeCellPoints(p: CellPoints): Buffer {
  const b = Buffer.allocUnsafe(p.ids.length * POINT_BYTES);
  for (let i = 0, at = 0; i < p.ids.length; i++, at += POINT_BYTES) {
    b.writeUInt32LE(p.ids[i]!, at);
    b.writeDoubleLE(p.lats[i]!, at + 4);
    b.writeDoubleLE(p.lngs[i]!, at + 12);
  }
  return b;
}

export function decodeCellPoints(bytes: Uint8Array): CellPoints {
  const b = view(bytes);
  const n = Math.floor(b.length / POINT_BYTES);
  const ids = new Array<number>(n);
  const lats = new Array<number>(n);
  const lngs = new Array<number>(n);
  for (let i = 0, at = 0; i < n; i++, at += POINT_BYTES) {
    ids[i] = b.readUInt32LE(at);
    lats[i] = b.readDoubleLE(at + 4);
    lngs[i] = b.readDoubleLE(at + 12);
  }
  return { ids, lats, lngs };
}

export function encodeBitmap(bitmap: Bitmap): Uint8Array {
  return bitmap.serialize('portable');
}

const NO_RUN_COOKIE = 12346;
const ARRAY_MAX = 4096;

/**
 * Portable bytes of sorted unique ids, written without a native bitmap (the bytes CRoaring gives:
 * array containers up to 4096 values, 8 KiB bitsets above, no runs). New keys of a bulk load hold
 * a few ids, where the native round trip costs more than the put.
 */
export function encodeIds(ids: ArrayLike<number>): Buffer {
  let n = 0;
  let size = 8;
  for (let i = 0; i < ids.length; ) {
    const high = ids[i]! >>> 16;
    let j = i + 1;
    while (j < ids.length && ids[j]! >>> 16 === high) j++;
    size += 8 + (j - i <= ARRAY_MAX ? 2 * (j - i) : 8192);
    n++;
    i = j;
  }
  const out = Buffer.alloc(size);
  out.writeUInt32LE(NO_RUN_COOKIE, 0);
  out.writeUInt32LE(n, 4);
  let data = 8 + 8 * n;
  for (let i = 0, c = 0; i < ids.length; c++) {
    const high = ids[i]! >>> 16;
    let j = i + 1;
    while (j < ids.length && ids[j]! >>> 16 === high) j++;
    // descriptive header (key, cardinality − 1), then the offset header
    out.writeUInt16LE(high, 8 + 4 * c);
    out.writeUInt16LE(j - i - 1, 10 + 4 * c);
    out.writeUInt32LE(data, 8 + 4 * n + 4 * c);
    if (j - i <= ARRAY_MAX) {
      for (let k = i; k < j; k++, data += 2) out.writeUInt16LE(ids[k]! & 0xffff, data);
    } else {
      for (let k = i; k < j; k++) {
        const low = ids[k]! & 0xffff;
        out[data + (low >>> 3)]! |= 1 << (low & 7);
      }
      data += 8192;
    }
    i = j;
  }
  return out;
}

export function decodeBitmap(bytes: Uint8Array | undefined): Bitmap {
  return bitmapFrom(bytes);
}

const RUN_COOKIE = 12347;

/**
 * The sorted ids of portable bytes, read without a native bitmap (a writer's read-modify-write of
 * a small bitmap costs less in JS than through the native calls); null when the bytes hold run
 * containers (never written here: read those with the native bitmap).
 */
export function decodeIds(bytes: Uint8Array): number[] | null {
  if (bytes.length === 0) return [];
  const cookie = bytes[0]! | (bytes[1]! << 8);
  if (cookie === RUN_COOKIE) return null;
  const n = u32At(bytes, 4);
  const out: number[] = [];
  let data = 8 + 8 * n;
  for (let c = 0; c < n; c++) {
    const high = (bytes[8 + 4 * c]! | (bytes[9 + 4 * c]! << 8)) * 0x10000;
    const card = (bytes[10 + 4 * c]! | (bytes[11 + 4 * c]! << 8)) + 1;
    if (card <= ARRAY_MAX) {
      for (let k = 0; k < card; k++, data += 2) out.push(high + (bytes[data]! | (bytes[data + 1]! << 8)));
    } else {
      for (let byte = 0; byte < 8192; byte++) {
        const bits = bytes[data + byte]!;
        if (bits === 0) continue;
        for (let bit = 0; bit < 8; bit++) if (bits & (1 << bit)) out.push(high + byte * 8 + bit);
      }
      data += 8192;
    }
  }
  return out;
}

function u32At(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/**
 * `ids` (sorted) after the signed ids of `ops` in order (id added, ~id removed: the last operation
 * on a document decides); null when the set ends as it was.
 */
export function applyIdOps(ids: readonly number[], ops: readonly number[]): number[] | null {
  // additions after the greatest id, in order (documents added to a value): appended
  let appendOnly = true;
  let prev = ids.length === 0 ? -1 : ids[ids.length - 1]!;
  for (const op of ops) {
    if (op <= prev) {
      appendOnly = false;
      break;
    }
    prev = op;
  }
  if (appendOnly) return ops.length === 0 ? null : ids.concat(ops);
  if (ops.length > 64) return applyManyIdOps(ids, ops);
  const last = new Map<number, boolean>();
  for (const op of ops) last.set(op < 0 ? ~op : op, op >= 0);
  const adds: number[] = [];
  for (const [id, present] of last) if (present) adds.push(id);
  adds.sort((a, b) => a - b);
  const out: number[] = [];
  let changed = false;
  let j = 0;
  for (const id of ids) {
    while (j < adds.length && adds[j]! < id) {
      out.push(adds[j++]!);
      changed = true;
    }
    if (j < adds.length && adds[j] === id) j++;
    if (last.get(id) === false) changed = true;
    else out.push(id);
  }
  while (j < adds.length) {
    out.push(adds[j++]!);
    changed = true;
  }
  return changed ? out : null;
}

const PRESENT = 1;
const ABSENT = 2;
/** present at the end and already listed among the additions */
const LISTED = 3;

/** `applyIdOps` for long operation lists: the final state of each document in a typed array by id. */
function applyManyIdOps(ids: readonly number[], ops: readonly number[]): number[] | null {
  let max = 0;
  for (const op of ops) {
    const id = op < 0 ? ~op : op;
    if (id > max) max = id;
  }
  const state = new Uint8Array(max + 1);
  for (const op of ops) {
    if (op >= 0) state[op] = PRESENT;
    else state[~op] = ABSENT;
  }
  const added: number[] = [];
  for (const op of ops) {
    if (op >= 0 && state[op] === PRESENT) {
      state[op] = LISTED;
      added.push(op);
    }
  }
  const adds = Uint32Array.from(added).sort();
  const out: number[] = [];
  let changed = false;
  let j = 0;
  for (const id of ids) {
    while (j < adds.length && adds[j]! < id) {
      out.push(adds[j++]!);
      changed = true;
    }
    if (j < adds.length && adds[j] === id) j++;
    if (id <= max && state[id] === ABSENT) changed = true;
    else out.push(id);
  }
  while (j < adds.length) {
    out.push(adds[j++]!);
    changed = true;
  }
  return changed ? out : null;
}

