/** Base64 to and from bytes: Node's `Buffer` where it exists, else `atob` / `btoa`. */

interface NodeBufferLike {
  from(value: string, encoding: 'base64'): Uint8Array;
  from(value: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'base64'): string };
}

const NodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;

export function decodeBase64(text: string): Uint8Array {
  if (NodeBuffer) {
    const buffer = NodeBuffer.from(text, 'base64');
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function encodeBase64(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
