/**
 * Base64 (RFC 4648, with padding) to and from bytes. On Node the native `Buffer` codec is used; elsewhere a
 * table decoder and `btoa` in chunks. Decoding returns a fresh view the caller may keep.
 */

interface NodeBufferLike {
  from(value: string, encoding: 'base64'): Uint8Array;
  from(value: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'base64'): string };
}

const NodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE_TABLE = new Uint8Array(128).fill(255);
for (let i = 0; i < ALPHABET.length; i++) DECODE_TABLE[ALPHABET.charCodeAt(i)] = i;
// base64url characters decode too, like Buffer does.
DECODE_TABLE['-'.charCodeAt(0)] = 62;
DECODE_TABLE['_'.charCodeAt(0)] = 63;

/**
 * Decodes standard base64 into bytes. Characters outside the alphabet are skipped, as Node does. On Node the result
 * is a plain `Uint8Array` view of the decoded `Buffer`'s memory (no copy).
 */
export function decodeBase64(text: string): Uint8Array {
  if (NodeBuffer) {
    const buffer = NodeBuffer.from(text, 'base64');
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }
  return decodeBase64Portable(text);
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
