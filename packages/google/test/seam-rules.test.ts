import { Agent, tool } from '@parley/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GeminiContent } from '../src/index.js';
import { geminiRig } from './rig.js';

type Rig = Awaited<ReturnType<typeof geminiRig>>;
let rig: Rig | undefined;

afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** A user message the app sent and the request to answer it, as they reach the service. */
const userTurn = (text: string) => [
  { clientContent: { turns: [{ role: 'user', parts: [{ text }] }], turnComplete: false } },
  { clientContent: { turnComplete: true } },
];

const texts = (history: readonly GeminiContent[]) =>
  history.map((turn) => [turn.role, turn.parts.map((part) => part.text ?? '').join('')]);

describe('GeminiLiveModel speaks the seam without faking what the service does not say', () => {
  it('a sent message is in history without any acknowledgement from the service', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({
      outputs: [{ type: 'speech', text: 'Hello there, nice day.', holdAfterMs: 100 }],
    });
    const { session, events } = rig.session(new Agent({ name: 'Greeter' }));
    await session.connect();
    session.sendMessage('Hi there');
    await events.waitFor('audio');
    expect(session.history.filter((i) => i.type === 'message' && i.role === 'user')).toMatchObject([
      { role: 'user', text: 'Hi there' },
    ]);
    expect(rig.simulator.latest?.sent.some((m) => m.serverContent?.turnComplete === true)).toBe(false);
  });

  it('goAway: the session recycles between turns and resumes with the latest handle, replaying nothing', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({ outputs: [{ type: 'speech', text: 'Nice to meet you, Ada.' }] });
    const { session, events } = rig.session(new Agent({ name: 'Host' }));
    await session.connect();
    session.sendMessage('My name is Ada.');
    await events.waitFor('response_done');
    const first = rig.simulator.latest;
    const next = rig.simulator.nextSession();
    first?.goAway(16_000, { close: false });
    const recycled = await events.waitFor('reconnected');
    expect(recycled).toMatchObject({ reason: 'recycle', resumed: true, replayedItems: 0 });
    const before = events.of('response_done').map((e) => e.responseId);
    const second = await next;
    expect(second.resumed).toBe(true);
    expect(second.setup?.sessionResumption).toEqual({ handle: expect.any(String), transparent: true });
    expect(texts(second.history)).toEqual([
      ['user', 'My name is Ada.'],
      ['model', 'Nice to meet you, Ada.'],
    ]);
    await first?.closed;
    expect(first?.closedByClient).toBe(true);
    rig.simulator.respondWith({ outputs: [{ type: 'speech', text: 'You are Ada.' }] });
    session.sendMessage('Who am I?');
    const after = await events.waitFor('response_done', () => true, 2);
    expect(second.received.filter((m) => 'clientContent' in m)).toEqual(userTurn('Who am I?'));
    // A new connection's ids never repeat the old one's: the session tells the responses apart.
    expect(before).not.toContain(after.responseId);
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'You are Ada.' });
    expect(new Set(session.history.map((item) => item.itemId)).size).toBe(session.history.length);
  });

  it('after a cut, a resumed session gets only what its handle does not hold: a message the service took after it', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith(
      { outputs: [{ type: 'speech', text: 'Hello Ada.' }] },
      // The answer to the second message never completes on the first connection: no handle covers that message.
      { outputs: [{ type: 'speech', text: 'Paris is lovely.', holdAfterMs: 100 }] },
    );
    const { session, events } = rig.session(new Agent({ name: 'Host' }), { reconnect: { jitter: 0 } });
    await session.connect();
    session.sendMessage('My name is Ada.');
    await events.waitFor('response_done');
    const first = rig.simulator.latest;
    session.sendMessage('I live in Paris.');
    await events.waitFor('audio');
    const next = rig.simulator.nextSession();
    first?.drop();
    const reconnected = await events.waitFor('reconnected');
    expect(reconnected).toMatchObject({ reason: 'connection_lost', resumed: true, replayedItems: 1 });
    const second = await next;
    expect(second.resumed).toBe(true);
    await rig.simulator.waitForMessage(
      (m, connection) => connection === second.index && 'clientContent' in m,
    );
    // The first exchange once (held by the handle), the second message replayed.
    expect(texts(second.history)).toEqual([
      ['user', 'My name is Ada.'],
      ['model', 'Hello Ada.'],
      ['user', 'I live in Paris.'],
    ]);
  });

  it('after a cut with an expired handle, a new session gets the whole history replayed', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({ outputs: [{ type: 'speech', text: 'Hello Ada.' }] });
    const { session, events } = rig.session(new Agent({ name: 'Host' }), { reconnect: { jitter: 0 } });
    await session.connect();
    session.sendMessage('My name is Ada.');
    await events.waitFor('response_done');
    rig.simulator.expireHandles();
    const first = rig.simulator.latest;
    first?.drop();
    const reconnected = await events.waitFor('reconnected');
    expect(reconnected).toMatchObject({ reason: 'connection_lost', replayedItems: 2 });
    expect(reconnected.resumed).toBeUndefined();
    const fresh = rig.simulator.latest;
    expect(fresh?.resumed).toBe(false);
    expect(fresh?.setup?.sessionResumption?.handle).toBeUndefined();
    await rig.simulator.waitForMessage(
      (m, connection) => connection === fresh?.index && 'clientContent' in m,
    );
    expect(texts(fresh?.history ?? [])).toEqual([
      ['user', 'My name is Ada.'],
      ['model', 'Hello Ada.'],
    ]);
  });

  it('instructions for one response join the context as a turn, and the session says they stay', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({ outputs: [{ type: 'speech', text: 'Welcome to the bank.' }] });
    const { session, events } = rig.session(new Agent({ name: 'Greeter' }));
    await session.connect();
    const handle = session.generateResponse({ instructions: 'Greet the caller.' });
    await handle.done;
    expect(
      rig.simulator.received.filter(({ message }) => 'clientContent' in message).map((m) => m.message),
    ).toEqual([
      {
        clientContent: {
          turns: [{ role: 'user', parts: [{ text: 'Greet the caller.' }] }],
          turnComplete: true,
        },
      },
    ]);
    const warning = events.of('warning').find((w) => w.code === 'response_instructions_persist');
    expect(warning?.message).toContain(handle.clientRequestId);
    // The session's history does not show them; the service's context keeps them.
    expect(session.history.map((i) => (i.type === 'message' ? [i.role, i.text] : i.type))).toEqual([
      ['assistant', 'Welcome to the bank.'],
    ]);
    expect(texts(rig.simulator.latest?.history ?? [])[0]).toEqual(['user', 'Greet the caller.']);
  });

  it('a tool call the service cancels: the tool is stopped and its output is never sent', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith({
      outputs: [{ type: 'call', name: 'slow_lookup', args: { key: 'a' }, id: 'call-1' }],
    });
    const signals: AbortSignal[] = [];
    let finish: (() => void) | undefined;
    const slow = tool({
      name: 'slow_lookup',
      description: 'Takes its time.',
      parameters: z.object({ key: z.string() }),
      execute: async ({ key }, { signal }) => {
        signals.push(signal);
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        return `found ${key}`;
      },
    });
    const { session, events } = rig.session(new Agent({ name: 'Worker', tools: [slow] }));
    await session.connect();
    session.sendMessage('Look it up.');
    await events.waitFor('tool_started');
    rig.simulator.latest?.cancelCalls(['call-1']);
    const done = await events.waitFor('tool_done');
    expect(done).toMatchObject({ callId: 'call-1', status: 'cancelled' });
    expect(signals[0]?.aborted).toBe(true);
    finish?.();
    rig.simulator.respondWith({ outputs: [{ type: 'speech', text: 'Sure.' }] });
    session.sendMessage('Never mind.');
    await events.waitFor('response_done', (e) => e.status === 'completed', 2);
    expect(rig.simulator.received.filter(({ message }) => 'toolResponse' in message)).toEqual([]);
    expect(session.history.find((item) => item.type === 'function_call')).toMatchObject({
      callId: 'call-1',
      status: 'cancelled',
    });
  });

  it('push-to-talk over the answer: the service stops it, and nothing the session does stops the answer to the new turn', async () => {
    rig = await geminiRig();
    rig.simulator.respondWith(
      { outputs: [{ type: 'speech', text: 'A long story about dragons and their gold.', holdAfterMs: 300 }] },
      { outputs: [{ type: 'speech', text: 'Cats, then.' }] },
    );
    const { session, events } = rig.session(new Agent({ name: 'Storyteller' }), {
      config: { turnDetection: null },
    });
    await session.connect();
    const speech = (text: string) => {
      rig?.simulator.hear(text);
      const pcm = new Uint8Array(4800 * 2);
      const view = new DataView(pcm.buffer);
      for (let i = 0; i < 4800; i++) view.setInt16(i * 2, Math.round(Math.sin(i / 5) * 9000), true);
      return pcm;
    };
    session.sendAudio(speech('Tell me a story.'), { commit: true });
    await events.waitFor('audio');
    session.sendAudio(speech('No, one about cats.'), { commit: true });
    const second = await events.waitFor('response_done', () => true, 2);
    expect(events.of('response_done').map((e) => [e.status, e.reason])).toEqual([
      ['cancelled', 'user_turn'],
      ['completed', undefined],
    ]);
    expect(second.status).toBe('completed');
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'Cats, then.' });
    // No client content at all: the activity signals alone stop the first answer and ask for the second.
    expect(rig.simulator.received.filter(({ message }) => 'clientContent' in message)).toEqual([]);
    // The user's speech that interrupted is over: the session finds itself between turns and recycles on goAway.
    rig.simulator.latest?.goAway(16_000, { close: false });
    expect(await events.waitFor('reconnected')).toMatchObject({ reason: 'recycle', resumed: true });
  });

  it('a message sent while the model answers waits for the answer to end (client content would interrupt it)', async () => {
    // Unpaced: the answer is held as soon as its first 200 ms went out.
    rig = await geminiRig({ simulator: { pace: 'instant' } });
    rig.simulator.respondWith(
      { outputs: [{ type: 'speech', text: 'A long story about dragons.', holdAfterMs: 200 }] },
      { outputs: [{ type: 'speech', text: 'Cats too.' }] },
    );
    // The held answer is silent on a clock that jumps while nothing happens: windows long enough not to drop it.
    const { session, events } = rig.session(new Agent({ name: 'Storyteller' }), {
      responseTimeoutMs: 3_600_000,
      staleResponseMs: 3_600_000,
    });
    await session.connect();
    session.sendMessage('Tell me a story.');
    await events.waitFor('audio');
    session.sendMessage('And one about cats.');
    for (let i = 0; i < 5; i++) await Promise.resolve();
    const contents = () => rig?.simulator.received.filter(({ message }) => 'clientContent' in message) ?? [];
    expect(contents()).toHaveLength(2);
    expect(rig.simulator.latest?.generating).toBe(true);
    rig.simulator.latest?.release();
    const first = await events.waitFor('response_done');
    expect(first.status).toBe('completed');
    await events.waitFor('response_done', () => true, 2);
    expect(contents().map(({ message }) => message)).toEqual([
      ...userTurn('Tell me a story.'),
      ...userTurn('And one about cats.'),
    ]);
    expect(events.of('response_done').map((e) => e.status)).toEqual(['completed', 'completed']);
  });
});
