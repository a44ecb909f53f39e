/**
 * The encoding of realtime audio: `pcm16` (16-bit little-endian PCM, 24 kHz, mono), or G.711 at 8 kHz, mono
 * (`g711_ulaw`, `g711_alaw`).
 */
export type RealtimeAudioFormatV1 = 'pcm16' | 'g711_ulaw' | 'g711_alaw';
