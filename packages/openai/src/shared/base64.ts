/**
 * Base64 (RFC 4648, with padding) to and from bytes. On Node the native `Buffer` codec is used; elsewhere a
 * table decoder and `btoa` in chunks. Decoding returns a fresh view the caller may keep.
 */

interface NodeBufferInstance extends Uint8Array {
  write(text: string, offset: number, encoding: 'base64'): number;
}

interface NodeBufferLike {
  allocUnsafeSlow(size: number): NodeBufferInstance;
  from(value: string, encoding: 'base64'): Uint8Array;
  from(value: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'base64'): string };
}

const NodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;

/**
 * Small decodes (audio deltas: 4,800 bytes per 100 ms) are written into a shared slab, like Node's own `Buffer`
 * pool: allocating an `ArrayBuffer` per chunk costs more than decoding it. A slab region is written once and never
 * reused, so each view stays valid for as long as its holder keeps it (and keeps the slab alive with it). Views start
 * at 8-byte aligned offsets, so `new Int16Array(view.buffer, view.byteOffset, …)` works. Like that pool, a slab is
 * not zero-filled (zeroing 64 KiB of fresh memory cost more than the decodes it serves): the bytes of `view.buffer`
 * outside a view are not part of it.
 */
const SLAB_SIZE = 64 * 1024;
const SLAB_MAX_CHUNK = SLAB_SIZE / 4;
let slab: NodeBufferInstance | undefined;
let slabOffset = 0;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE_TABLE = new Uint8Array(128).fill(255);
for (let i = 0; i < ALPHABET.length; i++) DECODE_TABLE[ALPHABET.charCodeAt(i)] = i;
// base64url characters decode too, like Buffer does.
DECODE_TABLE['-'.charCodeAt(0)] = 62;
DECODE_TABLE['_'.charCodeAt(0)] = 63;

const EQUALS = 61;

/**
 * Decodes standard base64 into bytes. Characters outside the alphabet are skipped, as Node does. On Node the result
 * is a plain `Uint8Array` view of memory the decoder wrote once and never touches again (see the slab above).
 *
 * With `exact`, only well-formed padded base64 decodes (a multiple of 4 characters, `=` only as the last one or two);
 * anything else returns `undefined`. Both decoders skip characters outside the alphabet, so one decodes to exactly
 * `3 × length / 4 − padding` bytes only when none was skipped: the check costs no pass of its own over the text.
 * One function on both paths: an audio delta's decode is one call.
 */
export function decodeBase64(text: string): Uint8Array;
export function decodeBase64(text: string, exact: true): Uint8Array | undefined;
export function decodeBase64(text: string, exact = false): Uint8Array | undefined {
  const length = text.length;
  let exactBytes: number | undefined;
  if (exact) {
    if ((length & 3) !== 0) return undefined;
    const padding =
      length === 0 || text.charCodeAt(length - 1) !== EQUALS
        ? 0
        : text.charCodeAt(length - 2) === EQUALS
          ? 2
          : 1;
    exactBytes = (length >> 2) * 3 - padding;
  }
  const Buffer = NodeBuffer;
  if (Buffer === undefined) {
    const bytes = decodeBase64Portable(text);
    return exactBytes === undefined || bytes.length === exactBytes ? bytes : undefined;
  }
  const maxBytes = Math.ceil(length / 4) * 3;
  if (maxBytes > SLAB_MAX_CHUNK) {
    const buffer = Buffer.from(text, 'base64');
    if (exactBytes !== undefined && buffer.byteLength !== exactBytes) return undefined;
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }
  if (slab === undefined || slabOffset + maxBytes > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
    slabOffset = 0;
  }
  const written = slab.write(text, slabOffset, 'base64');
  // A region that is not handed out is written over by the next decode.
  if (exactBytes !== undefined && written !== exactBytes) return undefined;
  const view = new Uint8Array(slab.buffer, slab.byteOffset + slabOffset, written);
  slabOffset += (written + 7) & ~7;
  return view;
}

/** The decoder used where `Buffer` does not exist; exported for tests. */
export function decodeBase64Portable(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let bitCount = 0;
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? (DECODE_TABLE[code] as number) : 255;
    if (value === 255) continue;
    bits = (bits << 6) | value;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      out[length++] = (bits >> bitCount) & 0xff;
    }
  }
  return length === out.length ? out : out.subarray(0, length);
}

/** Encodes bytes as standard base64 with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(binary);
}

/** `true` when `text` is well-formed padded base64 (what the Realtime API accepts for audio). */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}
