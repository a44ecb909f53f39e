import { ManualClock } from '@parley/mock';
import {
  DEFAULT_PACE,
  FastForwardClock,
  type SimulatorConnection,
  startRealtimeSimulator,
} from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { RawClient } from './raw-client.js';

const userMessage = (text: string) => ({
  type: 'conversation.item.create',
  item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
});

const sentTypes = (server: SimulatorConnection) => server.serverEvents.map((e) => e.type);
const count = (server: SimulatorConnection, type: string) =>
  server.serverEvents.filter((e) => e.type === type).length;

/** A simulator on a ManualClock, a raw client, and the server side of its connection. */
async function pacedOnManualClock(options: Parameters<typeof simulator>[0] = {}) {
  const clock = new ManualClock();
  const sim = await simulator({ clock, ...options });
  const client = await RawClient.connect(sim);
  const server = await sim.waitForConnection(0);
  return { clock, sim, client, server };
}

describe('simulator pace: responses take time, as the service does', () => {
  test('the defaults: first output after 500 ms, then generation 5× faster than real time', async () => {
    expect(DEFAULT_PACE).toEqual({ firstOutputMs: 500, speed: 5 });
    const { clock, sim, client, server } = await pacedOnManualClock();
    sim.script({ type: 'message', text: 'Hello there.', audioMs: 1000 });
    client.send({ type: 'response.create' });
    await server.waitForServerEvent('response.created');
    await clock.advance(499);
    expect(sentTypes(server).slice(1)).toEqual(['response.created']);
    await clock.advance(1);
    expect(count(server, 'response.output_item.added')).toBe(1);
    expect(count(server, 'response.output_audio_transcript.delta')).toBe(1);
    // 1000 ms of audio at 5× real time: 200 ms of generation after the first output.
    await clock.advance(199);
    expect(count(server, 'response.done')).toBe(0);
    expect(sim.connections[0]?.activeResponses).toHaveLength(1);
    await clock.advance(1);
    expect(count(server, 'response.done')).toBe(1);
    const done = await client.waitFor('response.done');
    expect((done.response as { status: string }).status).toBe('completed');
    expect(server.conversation.audioMs(server.conversation.items[0]?.id as string)).toBe(1000);
    expect(clock.pendingTimers).toBeGreaterThan(0); // only the session limit remains
  });

  test('a custom pace: firstOutputMs and speed', async () => {
    const { clock, sim, client, server } = await pacedOnManualClock({
      pace: { firstOutputMs: 100, speed: 2 },
    });
    sim.script({ type: 'message', text: 'Hi.', audioMs: 400 });
    client.send({ type: 'response.create' });
    await server.waitForServerEvent('response.created');
    await clock.advance(99);
    expect(count(server, 'response.output_item.added')).toBe(0);
    await clock.advance(1 + 199);
    expect(count(server, 'response.done')).toBe(0);
    await clock.advance(1);
    expect(count(server, 'response.done')).toBe(1);
  });

  test('text and function-call arguments stream at the same pace (msPerChar of audio per character)', async () => {
    const { clock, sim, client, server } = await pacedOnManualClock({
      msPerChar: 50,
      pace: { firstOutputMs: 0, speed: 5 },
    });
    client.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    sim.script(['abcd', { type: 'function_call', name: 'f', arguments: '{"a":1}' }]);
    client.send({ type: 'response.create' });
    await server.waitForServerEvent('response.created');
    // 'abcd': 4 characters = 200 ms of output = 40 ms; arguments: 4 + 3 characters = 70 ms.
    await clock.advance(39);
    expect(count(server, 'response.output_text.done')).toBe(0);
    await clock.advance(1);
    expect(count(server, 'response.output_text.done')).toBe(1);
    expect(count(server, 'response.function_call_arguments.delta')).toBe(1);
    await clock.advance(69);
    expect(count(server, 'response.function_call_arguments.done')).toBe(0);
    await clock.advance(1);
    expect(count(server, 'response.function_call_arguments.done')).toBe(1);
    expect(count(server, 'response.done')).toBe(1);
  });

  test('a second response.create right after the first is refused with conversation_already_has_active_response, naming its event_id', async () => {
    const { clock, client, server } = await pacedOnManualClock();
    client.send(userMessage('Hi'));
    client.send({ type: 'response.create', event_id: 'first' });
    client.send({ type: 'response.create', event_id: 'second' });
    const error = await client.waitFor('error');
    const created = client.ofType('response.created')[0]?.response as { id: string };
    expect(error.error).toEqual({
      type: 'invalid_request_error',
      code: 'conversation_already_has_active_response',
      message: `Conversation already has an active response in progress: ${created.id}. Wait until the response is finished before creating a new one.`,
      param: null,
      event_id: 'second',
    });
    expect(client.ofType('response.created')).toHaveLength(1);
    await clock.advance(5_000);
    const done = await client.waitFor('response.done');
    expect(done.response).toMatchObject({ id: created.id, status: 'completed' });
    // Once it is done, a new response is accepted.
    client.send({ type: 'response.create', event_id: 'third' });
    await client.waitFor('response.created', 2);
    expect(client.ofType('error')).toHaveLength(1);
    expect(count(server, 'response.created')).toBe(2);
  });

  test('response.cancel right after response.create cancels it (no response_cancel_not_active)', async () => {
    const { client } = await pacedOnManualClock();
    client.send(userMessage('Hi'));
    client.send({ type: 'response.create' });
    client.send({ type: 'response.cancel', event_id: 'cancel' });
    const done = await client.waitFor('response.done');
    expect(done.response).toMatchObject({
      status: 'cancelled',
      status_details: { type: 'cancelled', reason: 'client_cancelled' },
      output: [],
    });
    expect(client.ofType('error')).toEqual([]);
    // A second cancel finds nothing active.
    client.send({ type: 'response.cancel', event_id: 'again' });
    const error = await client.waitFor('error');
    expect(error.error).toMatchObject({ code: 'response_cancel_not_active', event_id: 'again' });
  });

  test('a tool output can arrive while the response that called the tool still streams; creating the next response then is refused', async () => {
    const { clock, sim, client, server } = await pacedOnManualClock();
    sim.script([
      { type: 'function_call', name: 'lookup', arguments: { q: 'x' }, callId: 'call_1' },
      'Let me check that for you while it runs.',
    ]);
    client.send({ type: 'response.create' });
    await server.waitForServerEvent('response.created');
    await clock.advance(600);
    const callDone = await client.waitFor(
      (e) => e.type === 'response.output_item.done' && (e.item as { type: string }).type === 'function_call',
    );
    expect(callDone.item).toMatchObject({ status: 'completed', call_id: 'call_1' });
    expect(count(server, 'response.done')).toBe(0);
    client.send({
      type: 'conversation.item.create',
      item: { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true}' },
    });
    client.send({ type: 'response.create', event_id: 'too_early' });
    const error = await client.waitFor('error');
    expect(error.error).toMatchObject({
      code: 'conversation_already_has_active_response',
      event_id: 'too_early',
    });
    const added = await client.waitFor(
      (e) =>
        e.type === 'conversation.item.added' && (e.item as { type: string }).type === 'function_call_output',
    );
    expect(added.item).toMatchObject({ call_id: 'call_1', status: 'completed' });
    expect(client.ofType('response.done')).toEqual([]);
    await clock.advance(5_000);
    await client.waitFor('response.done');
    expect(client.ofType('response.created')).toHaveLength(1);
  });

  test('server VAD barge-in cancels a paced response mid-audio: partial audio and transcript, turn_detected', async () => {
    const { clock, sim, client, server } = await pacedOnManualClock({ chunkMs: 100 });
    sim.script({ type: 'message', text: 'one two three four five six seven eight', audioMs: 2000 });
    client.send({ type: 'response.create' });
    await server.waitForServerEvent('response.created');
    await clock.advance(500 + 100); // first output, then 500 ms of audio generated
    server.startSpeech();
    const done = await client.waitFor('response.done');
    expect(done.response).toMatchObject({
      status: 'cancelled',
      status_details: { type: 'cancelled', reason: 'turn_detected' },
    });
    const item = (done.response as { output: { status: string; content: { transcript: string }[] }[] })
      .output[0];
    expect(item?.status).toBe('incomplete');
    const transcript = item?.content[0]?.transcript ?? '';
    expect(transcript.length).toBeGreaterThan(0);
    expect('one two three four five six seven eight'.startsWith(transcript)).toBe(true);
    expect(transcript.length).toBeLessThan('one two three four five six seven eight'.length);
    const itemId = server.conversation.items[0]?.id as string;
    const audioMs = server.conversation.audioMs(itemId);
    expect(audioMs).toBeGreaterThan(0);
    expect(audioMs).toBeLessThan(2000);
    // Nothing streams after the cancel.
    const sent = server.serverEvents.length;
    await clock.advance(5_000);
    expect(server.serverEvents.length).toBe(sent);
  });

  test("a function call cut mid-arguments ends 'incomplete' without arguments.done", async () => {
    const { clock, sim, client, server } = await pacedOnManualClock({ pace: { firstOutputMs: 0, speed: 1 } });
    sim.script({ type: 'function_call', name: 'lookup', arguments: { query: 'a long query' } });
    client.send({ type: 'response.create' });
    await server.waitForServerEvent('response.function_call_arguments.delta');
    await clock.advance(1);
    client.send({ type: 'response.cancel' });
    const done = await client.waitFor('response.done');
    expect(client.ofType('response.function_call_arguments.done')).toEqual([]);
    const itemDone = client.ofType('response.output_item.done')[0]?.item as Record<string, unknown>;
    expect(itemDone).toMatchObject({ type: 'function_call', status: 'incomplete' });
    expect(JSON.stringify({ query: 'a long query' }).startsWith(itemDone.arguments as string)).toBe(true);
    expect(done.response).toMatchObject({ status: 'cancelled', output: [itemDone] });
  });

  test("pace: 'instant' streams each response to response.done while response.create is handled", async () => {
    const { client, server } = await pacedOnManualClock({ pace: 'instant' });
    client.send(userMessage('Hi'));
    client.send({ type: 'response.create' });
    client.send({ type: 'response.create' });
    await client.waitFor('response.done', 2);
    expect(client.ofType('error')).toEqual([]);
    expect(count(server, 'response.done')).toBe(2);
  });

  test('on a FastForwardClock a paced response completes without the test moving time, in virtual time', async () => {
    const clock = new FastForwardClock();
    const sim = await simulator({ clock });
    sim.script({ type: 'message', text: 'Hello there.', audioMs: 1000 });
    const client = await RawClient.connect(sim);
    client.send({ type: 'response.create' });
    client.send({ type: 'response.create', event_id: 'second' });
    await client.waitFor('response.done');
    expect(clock.now()).toBe(700);
    expect(client.ofType('error').map((e) => (e.error as { code: string }).code)).toEqual([
      'conversation_already_has_active_response',
    ]);
  });

  test('invalid pace options fail before the simulator listens', async () => {
    await expect(startRealtimeSimulator({ pace: { speed: 0 } })).rejects.toThrow(/speed/);
    await expect(startRealtimeSimulator({ pace: { firstOutputMs: -1 } })).rejects.toThrow(/firstOutputMs/);
    await expect(startRealtimeSimulator({ pace: { tokensPerSecond: 5 } as never })).rejects.toThrow(
      /Unknown simulator pace option 'tokensPerSecond'/,
    );
    await expect(startRealtimeSimulator({ pace: 'fast' as never })).rejects.toThrow(TypeError);
  });
});
