/** The simulated model's voice: PCM16 24 kHz mono, a 300 Hz tone at a quarter of full scale. */
export function modelVoice(ms: number, offsetMs = 0): Uint8Array {
  const samples = Math.round(ms * 24);
  const start = Math.round(offsetMs * 24);
  const bytes = new Uint8Array(samples * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples; i++) {
    view.setInt16(i * 2, Math.round(Math.sin((2 * Math.PI * (start + i)) / 80) * 0.25 * 32767), true);
  }
  return bytes;
}
