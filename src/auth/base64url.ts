// Base64url without padding, decoded as the `base64` crate (0.22, `URL_SAFE_NO_PAD`) does for the
// jsonwebtoken crate: the same refusals (padding, trailing bits, lone symbols) and the same error
// texts, which Meilisearch quotes in ``Could not decode tenant token, Base64 error: ...``.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const PAD = 0x3d;
const TABLE = new Int8Array(256).fill(-1);
for (let k = 0; k < ALPHABET.length; k++) TABLE[ALPHABET.charCodeAt(k)] = k;

export type Base64Result = { ok: true; bytes: Buffer } | { ok: false; reason: string };

const invalidByte = (offset: number, byte: number): Base64Result => ({ ok: false, reason: `Invalid symbol ${byte}, offset ${offset}.` });

/** Decodes `input` (bytes of the token part). */
export function decodeBase64Url(input: Uint8Array): Base64Result {
  const n = input.length;
  const rem = n % 4;
  if (rem === 1) {
    const last = input[n - 1]!;
    if (last !== PAD && TABLE[last]! < 0) return invalidByte(n - 1, last);
  }
  // every complete quad but the last one (which may hold padding)
  const body = Math.max(0, n - rem - (rem === 0 ? 4 : 0));
  for (let k = 0; k < body; k++) if (TABLE[input[k]!]! < 0) return invalidByte(k, input[k]!);

  const morsels: number[] = [];
  let padding = 0;
  let firstPadding = 0;
  let lastSymbol = 0;
  for (let k = body; k < n; k++) {
    const b = input[k]!;
    if (b === PAD) {
      if (k - body < 2) return invalidByte(k, b);
      if (padding === 0) firstPadding = k;
      padding++;
      continue;
    }
    if (padding > 0) return invalidByte(firstPadding, PAD);
    lastSymbol = b;
    const m = TABLE[b]!;
    if (m < 0) return invalidByte(k, b);
    morsels.push(m);
  }
  if (n > 0 && morsels.length < 2) return { ok: false, reason: `Invalid input length: ${body + morsels.length}` };
  if (padding > 0) return { ok: false, reason: 'Invalid padding' };
  // the bits of the last symbol past the last whole byte must be zero (canonical encoding)
  const unusedBits = (morsels.length * 6) % 8;
  if (unusedBits !== 0 && (morsels[morsels.length - 1]! & ((1 << unusedBits) - 1)) !== 0) {
    return { ok: false, reason: `Invalid last symbol ${lastSymbol}, offset ${body + morsels.length - 1}.` };
  }
  return { ok: true, bytes: Buffer.from(Buffer.from(input).toString('latin1'), 'base64url') };
}
