import { EventRecorder } from '@parley/conformance';
import {
  Agent,
  AudioConverter,
  type RealtimeAudioFormat,
  type RealtimeAudioStreamFormat,
  RealtimeSession,
  ReportedPlaybackTracker,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'Speaker' });
const pcm16 = (sampleRate: number): RealtimeAudioStreamFormat => ({ encoding: 'pcm16', sampleRate });

/** `ms` of a sine at `hz` (amplitude 0.5 of full scale), as PCM16 little-endian at `rate`. */
function tone(hz: number, ms: number, rate = 24_000): Uint8Array {
  const samples = Math.round((rate * ms) / 1000);
  const bytes = new Uint8Array(samples * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples; i++)
    view.setInt16(i * 2, Math.round(16384 * Math.sin((2 * Math.PI * hz * i) / rate)), true);
  return bytes;
}

function samplesOf(bytes: Uint8Array): Int16Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Int16Array.from({ length: bytes.length >> 1 }, (_, i) => view.getInt16(i * 2, true));
}

/** Root mean square of samples, skipping the filter's start-up. */
function rms(samples: Int16Array, skip = 64): number {
  const body = samples.subarray(skip);
  return Math.sqrt(body.reduce((sum, s) => sum + s * s, 0) / body.length);
}

/** Rising zero crossings per millisecond: the frequency of a pure tone in kHz. */
function kHzOf(samples: Int16Array, rate: number): number {
  let rising = 0;
  for (let i = 1; i < samples.length; i++)
    if ((samples[i - 1] as number) < 0 && (samples[i] as number) >= 0) rising++;
  return rising / ((samples.length * 1000) / rate);
}

const concat = (chunks: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
};

async function connected(
  audioFormats: { input: RealtimeAudioStreamFormat; output: RealtimeAudioStreamFormat } | undefined,
  app: { input?: RealtimeAudioFormat; output?: RealtimeAudioFormat } = {},
) {
  const model = new MockRealtimeModel(audioFormats ? { audioFormats } : {});
  const clock = new ManualClock();
  const session = new RealtimeSession(agent, {
    model,
    clock,
    playbackTracker: new ReportedPlaybackTracker(),
    config: {
      ...(app.input && { inputAudioFormat: app.input }),
      ...(app.output && { outputAudioFormat: app.output }),
    },
  });
  const log = new EventRecorder(session);
  await session.connect();
  const sentAudio = () =>
    concat(model.commands.flatMap((c) => (c.type === 'appendInputAudio' ? [c.audio] : [])));
  return { model, session, log, sentAudio };
}

describe('a provider that takes 16 kHz and speaks 24 kHz, under an app at PCM16 24 kHz', () => {
  test("the app's audio reaches it at 16 kHz: two thirds of the samples, the tone and its level kept", async () => {
    const { session, sentAudio } = await connected({ input: pcm16(16_000), output: pcm16(24_000) });
    const sent = tone(1000, 480);
    // In the chunk sizes a microphone delivers: the stream is one, whatever the cuts.
    for (let at = 0; at < sent.length; at += 960) session.sendAudio(sent.subarray(at, at + 960));
    const received = samplesOf(sentAudio());
    expect(received.length).toBe((480 * 16_000) / 1000);
    expect(kHzOf(received, 16_000)).toBeCloseTo(1, 1);
    expect(rms(received) / rms(samplesOf(sent))).toBeCloseTo(1, 1);
    await session.close();
  });

  test('what the lower rate cannot carry is filtered out, not folded back as an alias', async () => {
    const { session, sentAudio } = await connected({ input: pcm16(16_000), output: pcm16(24_000) });
    // 11 kHz is above 16 kHz's Nyquist frequency (8 kHz): without a low-pass it would come back as 5 kHz at full level.
    const sent = tone(11_000, 200);
    session.sendAudio(sent);
    const received = samplesOf(sentAudio());
    expect(rms(received) / rms(samplesOf(sent))).toBeLessThan(0.02);
    await session.close();
  });

  test('its 24 kHz output reaches the app untouched', async () => {
    const { model, session, log } = await connected({ input: pcm16(16_000), output: pcm16(24_000) });
    model.respondWith({ output: [{ type: 'message', text: 'Hello.', audio: { ms: 300 } }] });
    await session.generateResponse();
    await flushMicrotasks();
    expect(concat(log.of('audio').map((e) => e.data)).length).toBe(300 * 48);
    await session.close();
  });
});

describe('an app on G.711 over a provider that speaks PCM16 24 kHz', () => {
  test('µ-law in is PCM16 24 kHz at the provider: three samples for each byte', async () => {
    const { session, sentAudio } = await connected(
      { input: pcm16(24_000), output: pcm16(24_000) },
      { input: 'g711_ulaw', output: 'g711_ulaw' },
    );
    const ulaw = new AudioConverter(pcm16(24_000), { encoding: 'g711_ulaw' }).convert(tone(440, 300));
    expect(ulaw.length).toBe(300 * 8);
    session.sendAudio(ulaw);
    const received = samplesOf(sentAudio());
    expect(received.length).toBe(300 * 24);
    expect(kHzOf(received, 24_000)).toBeCloseTo(0.44, 1);
    await session.close();
  });

  test('its answer arrives as µ-law at 8 bytes a millisecond, and an interruption cuts at what the app played', async () => {
    const { model, session, log } = await connected(
      { input: pcm16(24_000), output: pcm16(24_000) },
      { input: 'g711_ulaw', output: 'g711_ulaw' },
    );
    model.respondWith({
      output: [{ type: 'message', text: 'A long answer.', audio: { ms: 500 } }, { type: 'pause' }],
    });
    await session.generateResponse();
    await flushMicrotasks();
    const audio = log.of('audio');
    const itemId = audio[0]!.itemId;
    expect(concat(audio.map((e) => e.data)).length).toBe(500 * 8);
    session.playback.played(itemId, 200);
    session.interrupt();
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'truncateItem')).toEqual([
      { type: 'truncateItem', itemId, heardMs: 200 },
    ]);
    await session.close();
  });

  test('A-law too; and a provider without declared formats gets the bytes as the app sent them', async () => {
    const alaw = await connected(
      { input: pcm16(24_000), output: pcm16(24_000) },
      { input: 'g711_alaw', output: 'g711_alaw' },
    );
    alaw.session.sendAudio(new Uint8Array(800).fill(0xd5));
    expect(alaw.sentAudio().length).toBe(100 * 48);
    await alaw.session.close();

    const plain = await connected(undefined, { input: 'g711_ulaw', output: 'g711_ulaw' });
    const bytes = new Uint8Array(800).fill(0x7f);
    plain.session.sendAudio(bytes);
    expect(plain.sentAudio()).toEqual(bytes);
    await plain.session.close();
  });
});

describe('session.audioFormats: the formats the app meets', () => {
  test("the configured ones, whatever the provider's, before, during and after the connection", async () => {
    const model = new MockRealtimeModel({ audioFormats: { input: pcm16(16_000), output: pcm16(24_000) } });
    const session = new RealtimeSession(agent, {
      model,
      playbackTracker: new ReportedPlaybackTracker(),
      config: { inputAudioFormat: 'g711_ulaw', outputAudioFormat: 'g711_alaw' },
    });
    expect(session.audioFormats).toEqual({ input: 'g711_ulaw', output: 'g711_alaw' });
    expect(Object.isFrozen(session.audioFormats)).toBe(true);
    await session.connect();
    // The provider takes PCM16 16 kHz; the app still sends µ-law and hears A-law (8 bytes a millisecond).
    expect(session.audioFormats).toEqual({ input: 'g711_ulaw', output: 'g711_alaw' });
    const log = new EventRecorder(session);
    model.respondWith({ output: [{ type: 'message', text: 'Hi.', audio: { ms: 200 } }] });
    await session.generateResponse();
    await flushMicrotasks();
    expect(concat(log.of('audio').map((e) => e.data)).length).toBe(200 * 8);
    await session.close();
    expect(session.audioFormats).toEqual({ input: 'g711_ulaw', output: 'g711_alaw' });
  });

  test('default: PCM16 (24 kHz) both ways', () => {
    const session = new RealtimeSession(agent, { model: new MockRealtimeModel() });
    expect(session.audioFormats).toEqual({ input: 'pcm16', output: 'pcm16' });
  });
});
