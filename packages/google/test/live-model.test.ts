import { Agent, tool } from '@parley/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GeminiClientMessage } from '../src/index.js';
import { geminiRig } from './rig.js';

type Rig = Awaited<ReturnType<typeof geminiRig>>;
let rig: Rig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const kinds = (messages: readonly { message: GeminiClientMessage }[]) =>
  messages.map(({ message }) => Object.keys(message)[0]);

describe('GeminiLiveModel against the Gemini simulator', () => {
  it('sends setup from the agent and resolves connect on setupComplete; the key travels in a header', async () => {
    rig = await geminiRig();
    const weather = tool({
      name: 'get_weather',
      description: 'The weather in a city.',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => `sunny in ${city}`,
    });
    const { session } = rig.session(
      new Agent({ name: 'Forecaster', instructions: 'Report the weather.', tools: [weather] }),
    );
    await session.connect();
    const setup = rig.simulator.latest?.setup;
    expect(setup).toMatchObject({
      model: 'models/gemini-live-2.5-flash-preview',
      generationConfig: { responseModalities: ['AUDIO'] },
      systemInstruction: { parts: [{ text: 'Report the weather.' }] },
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'The weather in a city.' }] }],
      sessionResumption: {},
      inputAudioTranscription: {},
      outputAudioTranscription: {},
    });
    const upgrade = rig.simulator.upgrades[0];
    expect(upgrade?.path).toBe(
      '/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent',
    );
    expect(upgrade?.headers['x-goog-api-key']).toBe('test-key');
  });

  it('a user message gets one answer: its turn, then the request that completes it; audio and transcript out', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({ outputs: [{ type: 'speech', text: 'Hello from Gemini.' }] });
    const { session, events } = rig.session(new Agent({ name: 'Greeter' }));
    await session.connect();
    session.sendMessage('Hi there');
    const done = await events.waitFor('response_done');
    expect(done.status).toBe('completed');
    const contents = rig.simulator.received.filter(({ message }) => 'clientContent' in message);
    // The user's turn joins the context, then the request completes it: the model answers once.
    expect(contents.map(({ message }) => message)).toEqual([
      { clientContent: { turns: [{ role: 'user', parts: [{ text: 'Hi there' }] }], turnComplete: false } },
      { clientContent: { turnComplete: true } },
    ]);
    expect(events.of('response_started')).toHaveLength(1);
    expect(events.of('audio').length).toBeGreaterThan(0);
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'Hello from Gemini.' });
    expect(rig.simulator.latest?.history).toEqual([
      { role: 'user', parts: [{ text: 'Hi there' }] },
      { role: 'model', parts: [{ text: 'Hello from Gemini.' }] },
    ]);
    expect(done.usage?.outputTokens).toBeGreaterThan(0);
  });

  it('runs a tool call: the output goes back by the call id and the model answers by itself (no second request)', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith(
      { outputs: [{ type: 'call', name: 'get_weather', args: { city: 'Paris' }, id: 'call-1' }] },
      { outputs: [{ type: 'speech', text: 'It is sunny in Paris.' }] },
    );
    const weather = tool({
      name: 'get_weather',
      description: 'The weather in a city.',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => `sunny in ${city}`,
    });
    const { session, events } = rig.session(new Agent({ name: 'Forecaster', tools: [weather] }));
    await session.connect();
    session.sendMessage('Weather in Paris?');
    await events.waitFor('response_done', () => true, 2);
    const responses = rig.simulator.received.filter(({ message }) => 'toolResponse' in message);
    expect(responses.map(({ message }) => message)).toEqual([
      {
        toolResponse: {
          functionResponses: [{ id: 'call-1', name: 'get_weather', response: { output: 'sunny in Paris' } }],
        },
      },
    ]);
    const completions = rig.simulator.received.filter(
      ({ message }) => 'clientContent' in message && message.clientContent.turnComplete,
    );
    expect(completions).toHaveLength(1);
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'It is sunny in Paris.' });
  });

  it('push-to-talk: activityStart, audio at 16 kHz, activityEnd on commit, and one answer only', async () => {
    rig = await geminiRig();
    rig.simulator.hear('What time is it?');
    rig.simulator.respondWith({ outputs: [{ type: 'speech', text: 'It is noon.' }] });
    const { session, events } = rig.session(new Agent({ name: 'Clock' }), {
      config: { turnDetection: null },
    });
    await session.connect();
    expect(rig.simulator.latest?.setup?.realtimeInputConfig).toEqual({
      automaticActivityDetection: { disabled: true },
    });
    const speech = new Uint8Array(4800 * 2); // 100 ms at 24 kHz
    const view = new DataView(speech.buffer);
    for (let i = 0; i < 4800; i++) view.setInt16(i * 2, Math.round(Math.sin(i / 5) * 9000), true);
    session.sendAudio(speech);
    session.commitAudio();
    await events.waitFor('response_done');
    const sent = rig.simulator.received.map(({ message }) => message);
    expect(sent[1]).toEqual({ realtimeInput: { activityStart: {} } });
    const audio = sent.flatMap((m) =>
      'realtimeInput' in m && m.realtimeInput.audio ? [m.realtimeInput.audio] : [],
    );
    expect(audio[0]?.mimeType).toBe('audio/pcm;rate=16000');
    expect(audio.reduce((n, a) => n + Buffer.from(a.data, 'base64').length, 0)).toBe(6400); // 100 ms at 16 kHz
    expect(sent.at(-1)).toEqual({ realtimeInput: { activityEnd: {} } });
    expect(kinds(rig.simulator.received)).not.toContain('clientContent');
    expect(events.of('response_started')).toHaveLength(1);
    expect(session.history.map((i) => (i.type === 'message' ? [i.role, i.text] : i.type))).toEqual([
      ['user', 'What time is it?'],
      ['assistant', 'It is noon.'],
    ]);
  });

  it('barge-in: the user speaking interrupts the answer, which ends cancelled', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({
      outputs: [{ type: 'speech', text: 'A very long story about dragons.', holdAfterMs: 300 }],
    });
    const { session, events } = rig.session(new Agent({ name: 'Storyteller' }));
    await session.connect();
    session.sendMessage('Tell me a story.');
    await events.waitFor('audio');
    rig.simulator.latest?.userStartsSpeaking();
    const done = await events.waitFor('response_done');
    expect(done).toMatchObject({ status: 'cancelled' });
    expect(done).toMatchObject({ status: 'cancelled', reason: 'user_turn' });
    expect(events.of('audio_interrupted')).toHaveLength(1);
  });

  it('interrupt(): there is no cancel message, so empty client content stops the turn; it ends cancelled', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({
      outputs: [{ type: 'speech', text: 'A very long story about dragons.', holdAfterMs: 300 }],
    });
    const { session, events } = rig.session(new Agent({ name: 'Storyteller' }));
    await session.connect();
    session.sendMessage('Tell me a story.');
    await events.waitFor('audio');
    session.interrupt();
    const done = await events.waitFor('response_done');
    expect(done).toMatchObject({ status: 'cancelled', reason: 'client_cancelled' });
    expect(rig.simulator.received.at(-1)?.message).toEqual({ clientContent: { turnComplete: false } });
    expect(rig.simulator.latest?.history.at(-1)?.role).toBe('model');
  });

  it('a handle the service no longer honours: the session reconnects and replays its history', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({ outputs: [{ type: 'speech', text: 'Hello Ada.' }] });
    const { session, events } = rig.session(new Agent({ name: 'Host' }));
    await session.connect();
    session.sendMessage('My name is Ada.');
    await events.waitFor('response_done');
    rig.simulator.expireHandles();
    const next = rig.simulator.nextSession();
    // The session recycles half-way to the limit (its clock jumps there); the service's close is left out.
    rig.simulator.latest?.goAway(16_000, { close: false });
    const recycled = await events.waitFor('reconnected');
    expect(recycled).toMatchObject({ replayedItems: 2 });
    const replayed = await next;
    expect(replayed.resumed).toBe(false);
    await rig.simulator.waitForMessage(
      (m, connection) => connection === replayed.index && 'clientContent' in m,
    );
    const refused = rig.simulator.sessions[1];
    expect(refused?.ready).toBe(false);
    expect(refused?.received[0]).toMatchObject({
      setup: { sessionResumption: { handle: expect.any(String) } },
    });
    // Both turns once; the session replays a user message the provider never acknowledged after the history.
    expect(replayed.history).toHaveLength(2);
    expect(replayed.history).toEqual(
      expect.arrayContaining([
        { role: 'user', parts: [{ text: 'My name is Ada.' }] },
        { role: 'model', parts: [{ text: 'Hello Ada.' }] },
      ]),
    );
  });

  it('a close code the service uses for a refused request is a fatal error: no reconnect', async () => {
    rig = await geminiRig();
    const { session, events } = rig.session(new Agent({ name: 'Host' }));
    await session.connect();
    rig.simulator.latest?.closeWith(1008, 'Operation is not implemented, or supported, or enabled.');
    const error = await events.waitFor('error');
    expect(error).toMatchObject({ source: 'provider', code: 'policy_violation', fatal: true });
    expect(error.message).toContain('not implemented');
    await events.waitFor('connection_status', (e) => e.status === 'disconnected');
    expect(rig.simulator.sessions).toHaveLength(1);
  });
});
