import type { LiveAudioFormat } from '../shared/live-wire-session.js';

/** What the connection needs to know of its wire audio: its byte rate and what digital silence is. */
export interface WireAudio {
  readonly bytesPerMs: number;
  /** The byte that fills a silence frame. */
  readonly silenceByte: number;
  /** Whether a chunk is digital silence (GPT-Live's output track between utterances). */
  isSilent(audio: Uint8Array): boolean;
}

/** Zero samples: PCM16 zeros; G.711 µ-law 0xFF (or its negative zero, 0x7F); A-law 0xD5 (or 0x55). */
export function audioShape(format: LiveAudioFormat): WireAudio {
  const pcm = format.type === 'audio/pcm';
  const [silenceByte, negativeZero] =
    format.type === 'audio/pcmu' ? [0xff, 0x7f] : format.type === 'audio/pcma' ? [0xd5, 0x55] : [0, 0];
  return {
    bytesPerMs: pcm ? (format.rate / 1000) * 2 : 8,
    silenceByte,
    isSilent(audio) {
      for (let i = 0; i < audio.length; i++) {
        const byte = audio[i];
        if (byte !== silenceByte && byte !== negativeZero) return false;
      }
      return true;
    },
  };
}
