import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, ReportedPlaybackTracker } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAILiveModel } from '@parley/openai';
import { expect, test } from 'vitest';
import { closeAfterTest, scriptedLivePeer } from './scripted-live-peer.js';

// GPT-Live sends no event when the user talks over its voice: it stops speaking by itself, and the user's words
// (`session.input_transcript.delta`, placed on the session timeline) are the only sign. The service's wire is
// scripted here, so that what arrives when is the test's choice.

/** 100 ms of the voice (PCM16 24 kHz, not silent). */
const voice = { type: 'session.output_audio.delta', delta: Buffer.alloc(4800, 0x11).toString('base64') };
const said = (delta: string, startMs: number) => ({
  type: 'session.output_transcript.delta',
  event_id: `sev_o${startMs}`,
  delta,
  start_ms: startMs,
  end_ms: startMs + 200,
});
const heard = (delta: string, startMs: number) => ({
  type: 'session.input_transcript.delta',
  event_id: `sev_i${startMs}`,
  delta,
  start_ms: startMs,
  end_ms: startMs + 200,
});

async function connected() {
  const peer = await scriptedLivePeer('live_barge');
  const live = closeAfterTest(
    new RealtimeSession(new Agent({ name: 'Voice' }), {
      model: new OpenAILiveModel({
        apiKey: 'sk-test',
        url: peer.url,
        clock: new ManualClock(),
        keepalive: false,
      }),
      playbackTracker: new ReportedPlaybackTracker(),
    }),
  );
  const events = new EventRecorder(live, { via: 'listeners' });
  await live.connect();
  const send = await peer.send;
  return { peer, send, events, live };
}

test('words said over the voice stop what plays, cut where the listener stopped hearing; what the voice says next is a new response', async () => {
  const { send, events, live } = await connected();
  send(said('The forecast for tomorrow is sunny', 1000));
  for (let i = 0; i < 5; i++) send(voice);
  const first = await events.waitFor('audio', () => true, 5);
  live.playback.played(first.itemId, 300);
  send(heard('Wait', 1400));
  const interrupted = await events.waitFor('audio_interrupted');
  expect(interrupted).toMatchObject({ responseId: first.responseId, itemId: first.itemId, heardMs: 300 });
  expect(await events.waitFor('response_done')).toMatchObject({
    responseId: first.responseId,
    status: 'cancelled',
    reason: 'user_turn',
  });
  expect((await events.waitFor('turn_done')).outcome).toBe('partial');
  // The voice goes on (GPT-Live decides that): a new response, played.
  send(voice);
  const next = await events.waitFor('response_started', (e) => e.responseId !== first.responseId);
  await events.waitFor('audio', (e) => e.responseId === next.responseId);
  expect(events.of('audio_interrupted')).toHaveLength(1);
});

test('words said before the voice began (transcribed late) interrupt nothing', async () => {
  const { send, events } = await connected();
  send(said('Sure, here it is', 2000));
  send(voice);
  const first = await events.waitFor('audio');
  send(heard(' please', 1800));
  send(voice);
  await events.waitFor('audio', (e) => e !== first);
  expect(events.events.filter((e) => e.type === 'audio_interrupted' || e.type === 'response_done')).toEqual(
    [],
  );
});

test('session.interrupt() ends the response at once, with nothing on the wire (no GPT-Live command stops the voice)', async () => {
  const { peer, send, events, live } = await connected();
  send(said('Let me tell you a long story', 500));
  send(voice);
  const first = await events.waitFor('audio');
  const sent = peer.received.length;
  live.interrupt();
  expect(await events.waitFor('response_done')).toMatchObject({
    responseId: first.responseId,
    status: 'cancelled',
    reason: 'client_cancelled',
  });
  expect(await events.waitFor('audio_interrupted')).toMatchObject({ heardMs: 0 });
  expect(peer.received.slice(sent).filter((e) => e.type !== 'session.input_audio.append')).toEqual([]);
});
