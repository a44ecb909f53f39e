import { describe, expect, it } from 'vitest';
import { audioFrame } from '../src/wire/audio-frame.js';

const frame = (data: string) =>
  JSON.stringify({
    serverContent: { modelTurn: { parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data } }] } },
  });

describe('the audio frame fast path', () => {
  it('reads a compact audio frame as JSON.parse does', () => {
    const text = frame('AAEC/+8=');
    expect(audioFrame(text)).toEqual(JSON.parse(text));
  });

  it('leaves every other shape to JSON.parse', () => {
    const variants = [
      frame('AAEC').replace('{"serverContent"', '{ "serverContent"'),
      JSON.stringify({
        serverContent: {
          modelTurn: { parts: [{ inlineData: { data: 'AAEC', mimeType: 'audio/pcm;rate=24000' } }] },
        },
      }),
      frame('AAEC').replace('rate=24000', 'rate=16000'),
      // An escaped quote in the data: not base64, and JSON.parse would unescape it.
      frame('AA"EC'),
      frame('AA\\u0041EC').replace('\\\\u', '\\u'),
      `${frame('AAEC').slice(0, -1)},"usageMetadata":{}}`,
      JSON.stringify({ serverContent: { outputTranscription: { text: 'hi' } } }),
    ];
    for (const text of variants) expect(audioFrame(text)).toBeUndefined();
  });
});
