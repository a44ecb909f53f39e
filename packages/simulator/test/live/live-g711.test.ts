import { Agent, RealtimeSession, type RealtimeSessionEvent } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { silenceAudio, speechAudio, toSessionAudio } from '@parley/simulator';
import { expect, test } from 'vitest';
import { closeAfterTest, liveSimulator } from './live-rig.js';

// GPT-Live's primary WebSocket takes G.711 (`audio/pcmu`, 8 kHz), one format both ways: a session configured for
// µ-law both ways (a phone line) passes it through, with no conversion.
test("µ-law both ways goes on the wire as audio/pcmu: the app's bytes untouched, µ-law back, silence told apart", async () => {
  // G.711 carries no embedded words: the simulated model hears the line as the script says.
  const sim = await liveSimulator({ msPerChar: 10, transcribe: () => 'where is my order' });
  sim.script('Your order shipped.');
  const clock = new ManualClock();
  const session = closeAfterTest(
    new RealtimeSession(new Agent({ name: 'Voice' }), {
      model: new OpenAILiveModel({ apiKey: 'sk-live', url: sim.url, clock, keepalive: false }),
      clock,
      config: { inputAudioFormat: 'g711_ulaw', outputAudioFormat: 'g711_ulaw' },
    }),
  );
  const events: RealtimeSessionEvent[] = [];
  session.on('audio', (e) => events.push(e));
  session.on('output_silence', (e) => events.push(e));
  session.on('response_done', (e) => events.push(e));
  await session.connect();
  const live = await sim.waitForSession();
  expect(live.resource.audio?.format).toEqual({ type: 'audio/pcmu', rate: 8000 });

  const ulaw = toSessionAudio(
    Buffer.concat([speechAudio('where is my order', { durationMs: 600 }), silenceAudio(1500)]),
    {
      type: 'audio/pcmu',
    },
  );
  for (let at = 0; at < ulaw.length; at += 800) session.sendAudio(ulaw.subarray(at, at + 800));
  for (let frames = 0; !events.some((e) => e.type === 'response_done'); frames += 10) {
    if (frames > 600) throw new Error('no answer within a minute of line audio');
    for (let i = 0; i < 10; i++) session.sendAudio(new Uint8Array(800).fill(0xff));
    await new Promise((resolve) => setImmediate(resolve));
  }
  // What the app sent is what the service got, byte for byte (100 ms frames of µ-law: 800 bytes).
  const sent = sim.clientEvents
    .map((e) => e.event as { type: string; audio?: string })
    .filter((e) => e.type === 'session.input_audio.append')
    .map((e) => Buffer.from(e.audio ?? '', 'base64'));
  expect(Buffer.concat(sent).subarray(0, ulaw.length).equals(Buffer.from(ulaw))).toBe(true);
  // The answer came back as µ-law (one byte a sample, 8 per ms) and ended on the track's silence.
  const audio = events.filter((e) => e.type === 'audio') as { data: Uint8Array }[];
  const bytes = audio.reduce((n, e) => n + e.data.byteLength, 0);
  expect(bytes % 8).toBe(0);
  expect(bytes / 8).toBeGreaterThanOrEqual('Your order shipped.'.length * 10);
  expect(events.some((e) => e.type === 'output_silence')).toBe(true);
});
