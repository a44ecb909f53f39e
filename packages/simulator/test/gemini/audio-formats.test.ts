import { Agent, ReportedPlaybackTracker } from '@parley/core';
import { afterEach, describe, expect, it } from 'vitest';
import { geminiRig } from './rig.js';

let rig: Awaited<ReturnType<typeof geminiRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** `ms` of a `hz` tone as PCM16 mono at `rate`. */
function tone(rate: number, hz: number, ms: number): Uint8Array {
  const samples = Math.round((rate * ms) / 1000);
  const bytes = new Uint8Array(samples * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples; i++) {
    view.setInt16(i * 2, Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 12_000), true);
  }
  return bytes;
}

/** Zero crossings per second of PCM16 mono at `rate` (twice the frequency of a pure tone). */
function crossingsPerSecond(pcm: Uint8Array, rate: number): number {
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  let crossings = 0;
  let previous = view.getInt16(0, true);
  for (let i = 2; i < pcm.byteLength; i += 2) {
    const sample = view.getInt16(i, true);
    if ((previous < 0 && sample >= 0) || (previous >= 0 && sample < 0)) crossings++;
    previous = sample;
  }
  return crossings / (pcm.byteLength / 2 / rate);
}

describe('Gemini Live audio formats: the session converts, the adapter declares', () => {
  it('the app sends PCM16 24 kHz; the wire carries the same sound at 16 kHz, as the service takes it', async () => {
    rig = await geminiRig();
    rig.simulator.hear('Hello?');
    rig.simulator.respondWith({ outputs: [{ type: 'speech', text: 'Hi.' }] });
    const { session, events } = rig.session(new Agent({ name: 'Echo' }), { config: { turnDetection: null } });
    await session.connect();
    session.sendAudio(tone(24_000, 440, 500));
    session.commitAudio();
    await events.waitFor('response_done');
    const chunks = rig.simulator.received.flatMap(({ message }) =>
      'realtimeInput' in message && message.realtimeInput.audio ? [message.realtimeInput.audio] : [],
    );
    expect(new Set(chunks.map((c) => c.mimeType))).toEqual(new Set(['audio/pcm;rate=16000']));
    const wire = Buffer.concat(chunks.map((c) => Buffer.from(c.data, 'base64')));
    expect(wire.byteLength).toBe(16_000); // 500 ms at 16 kHz
    // Still a 440 Hz tone at the wire's rate (a copy of the 24 kHz samples would read as 293 Hz).
    expect(crossingsPerSecond(wire.subarray(1600), 16_000) / 2).toBeCloseTo(440, -1);
  });

  it('an app on µ-law 8 kHz: the 24 kHz answer reaches it as µ-law, and what was heard is counted at 8 kHz', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({
      outputs: [
        { type: 'speech', text: 'A long answer about opening hours.', audioMs: 3000, holdAfterMs: 2000 },
      ],
    });
    const { session, events } = rig.session(new Agent({ name: 'Phone' }), {
      playbackTracker: new ReportedPlaybackTracker(),
      config: { inputAudioFormat: 'g711_ulaw', outputAudioFormat: 'g711_ulaw' },
    });
    await session.connect();
    session.sendMessage('When are you open?');
    let itemId = '';
    let bytes = 0;
    await new Promise<void>((resolve) =>
      session.on('audio', (event) => {
        itemId = event.itemId;
        bytes += event.data.byteLength;
        if (bytes >= 2000 * 8) resolve();
      }),
    );
    // Held after 2 s of its audio: every byte so far is µ-law, 8 a millisecond.
    expect(bytes).toBe(2000 * 8);
    session.playback.played(itemId, 1200);
    session.interrupt();
    const interrupted = await events.waitFor('audio_interrupted');
    expect(interrupted.heardMs).toBe(1200);
    const done = await events.waitFor('turn_done');
    expect(done.outcome).toBe('partial');
    expect(done.messages).toEqual([expect.objectContaining({ itemId, outcome: 'partial', heardMs: 1200 })]);
  });
});
