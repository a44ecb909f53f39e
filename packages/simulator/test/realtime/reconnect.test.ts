import { type RealtimeReconnectOptions, ReconnectFailedError, TurnLostError } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { createHold, type RealtimeSimulatorOptions, type SimulatorConnection } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
// The core reconnect tests' agent, so both suites exercise the same tool round trip.
import { forecaster as agent } from '../../../core/test/realtime/shared-fixtures.js';
import { simulator } from './helpers.js';
import { closeAndExpectNoSockets, SimulatedSession } from './session-rig.js';

/**
 * A session on an `OpenAIRealtimeModel` pointed at a simulator, one ManualClock for the simulator, the adapter
 * and the session, and the ws sockets the adapter opened, so a test can assert nothing is left.
 */
class Rig extends SimulatedSession {
  static async start(
    simOptions: Omit<RealtimeSimulatorOptions, 'clock'> = {},
    reconnect: RealtimeReconnectOptions = {},
  ): Promise<Rig> {
    const clock = new ManualClock();
    const sim = await simulator({ ...simOptions, clock });
    return new Rig(sim, clock, agent, { reconnect });
  }

  /** Sends a user message and waits for the `count`-th `response_done` since the start. */
  async exchange(text: string, responses = 1): Promise<void> {
    const before = this.of('response_done').length;
    this.session.sendMessage(text);
    await this.streamUntil(this.waitFor('response_done', () => true, before + responses));
  }

  /** Moves the clock on in 50 ms steps while paced responses stream, until `settled` resolves (30 s at most). */
  async streamUntil<T>(settled: Promise<T>): Promise<T> {
    let done = false;
    void settled.then(
      () => {
        done = true;
      },
      () => {
        done = true;
      },
    );
    for (let elapsed = 0; !done && elapsed < 30_000; elapsed += 50) await this.clock.advance(50);
    return settled;
  }

  /** Closes the session and asserts nothing is left on either side: sockets, timers, listeners. */
  async closeAndExpectReleased(): Promise<void> {
    await closeAndExpectNoSockets(this.session, this.sim, this.clock, this.sockets);
    // Recorded after a disconnect with no reconnect coming too: the recorder follows the session across it.
    await this.waitFor('connection_status', (e) => e.status === 'closed');
    expect(this.session.status).toBe('closed');
  }
}

type Wire = Record<string, unknown> & { type: string };

/** The client events a simulated connection received, as objects. */
const wire = (server: SimulatorConnection) => server.clientEvents as Wire[];

/** Waits until the conversation's replay (`count` item creates) reached the server. */
async function replayed(server: SimulatorConnection, count: number): Promise<Wire[]> {
  if (count > 0) await server.waitForClientEvent('conversation.item.create', count);
  return wire(server).filter((e) => e.type === 'conversation.item.create');
}

describe('automatic reconnect over the OpenAI simulator', () => {
  test('an unexpected close mid-conversation: a fresh session.update, then the conversation replayed in order', async () => {
    const rig = await Rig.start();
    rig.sim.script(
      { type: 'function_call', name: 'weather', arguments: { city: 'Paris' }, callId: 'call_paris' },
      'It is sunny in Paris.',
    );
    const first = await rig.connect();
    await rig.exchange('What is the weather in Paris?', 2);
    const history = rig.session.history;
    expect(history.map((item) => item.type)).toEqual(['message', 'function_call', 'message']);
    expect(history[2]).toMatchObject({ role: 'assistant', text: 'It is sunny in Paris.', hasAudio: true });

    first.close(1011, 'server restart');
    await rig.waitFor('reconnected');
    const second = rig.sim.connections[1] as SimulatorConnection;

    expect(rig.of('reconnecting')).toEqual([
      {
        type: 'reconnecting',
        reason: 'connection_lost',
        attempt: 1,
        maxAttempts: 5,
        delayMs: 0,
        detail: 'server restart',
      },
    ]);
    expect(rig.of('reconnected')).toEqual([
      { type: 'reconnected', reason: 'connection_lost', attempt: 1, replayedItems: 4 },
    ]);
    const items = await replayed(second, 4);
    expect(wire(second).map((e) => e.type)).toEqual([
      'session.update',
      'conversation.item.create',
      'conversation.item.create',
      'conversation.item.create',
      'conversation.item.create',
    ]);
    expect(wire(second)[0]?.session).toMatchObject({
      type: 'realtime',
      instructions: 'Tell the weather.',
      tools: [{ type: 'function', name: 'weather' }],
      output_modalities: ['audio'],
    });
    const [user, call, answer] = history;
    expect(items.map((e) => e.item)).toEqual([
      {
        type: 'message',
        id: user?.itemId,
        role: 'user',
        content: [{ type: 'input_text', text: 'What is the weather in Paris?' }],
      },
      {
        type: 'function_call',
        id: call?.itemId,
        call_id: 'call_paris',
        name: 'weather',
        arguments: '{"city":"Paris"}',
      },
      { type: 'function_call_output', call_id: 'call_paris', output: 'sunny in Paris' },
      {
        type: 'message',
        id: answer?.itemId,
        role: 'assistant',
        content: [{ type: 'output_text', text: 'It is sunny in Paris.' }],
      },
    ]);
    await second.waitForServerEvent('conversation.item.added', 4);
    expect(second.conversation.items.map((item) => item.id).slice(0, 2)).toEqual([
      user?.itemId,
      call?.itemId,
    ]);
    expect(rig.session.history).toEqual(history);
    expect(rig.of('error')).toEqual([]);

    // The model on the new connection sees the replayed conversation.
    let seen: string[] = [];
    rig.sim.script((turn) => {
      seen = turn.messages.map((m) => `${m.role}: ${m.text}`);
      return 'Still sunny.';
    });
    await rig.exchange('And tomorrow?');
    expect(seen).toEqual([
      'user: What is the weather in Paris?',
      'assistant: It is sunny in Paris.',
      'user: And tomorrow?',
    ]);
    expect(await first.closed).toEqual({ code: 1011, reason: 'server restart' });
    await rig.closeAndExpectReleased();
  });

  test('a dropped TCP connection mid-response: the response is reported lost and its partial message replayed', async () => {
    const rig = await Rig.start();
    const hold = createHold('mid-sentence');
    rig.sim.script({ type: 'message', text: ['Once upon a time ', hold, 'there was a socket.'] });
    const first = await rig.connect();
    rig.session.sendMessage('Tell me a story');
    await rig.streamUntil(hold.reached);
    await rig.waitFor('transcript_delta', (e) => e.delta.includes('time'));
    const responseId = rig.of('response_started')[0]?.responseId;

    first.terminate();
    await rig.waitFor('reconnected');
    expect(rig.of('response_done')).toEqual([
      {
        type: 'response_done',
        responseId,
        status: 'failed',
        ephemeral: false,
        reason: 'connection_lost',
      },
    ]);
    const lost = rig.of('error').find((e) => e.code === 'turn_lost');
    expect(lost?.error).toBeInstanceOf(TurnLostError);
    expect(lost?.error).toMatchObject({ responseIds: [responseId] });
    const partial = rig.session.history[1];
    expect(partial).toMatchObject({ role: 'assistant', interrupted: true });
    const partialText = partial?.type === 'message' ? partial.text : '';
    expect(partialText.startsWith('Once upon a time')).toBe(true);
    const second = rig.sim.connections[1] as SimulatorConnection;
    const items = await replayed(second, 2);
    expect(items.map((e) => e.item)).toEqual([
      expect.objectContaining({ role: 'user', content: [{ type: 'input_text', text: 'Tell me a story' }] }),
      expect.objectContaining({ role: 'assistant', content: [{ type: 'output_text', text: partialText }] }),
    ]);
    hold.release();
    await rig.closeAndExpectReleased();
  });

  test('session_expired (error, then close 1001): reconnects with reason session_expired and replays', async () => {
    const rig = await Rig.start();
    const first = await rig.connect();
    await rig.exchange('Hello');
    first.expire();
    await rig.waitFor('reconnected');
    expect(rig.of('error')).toEqual([
      expect.objectContaining({ source: 'provider', code: 'session_expired', fatal: true }),
    ]);
    expect(rig.of('reconnecting')).toEqual([
      expect.objectContaining({ reason: 'session_expired', attempt: 1, delayMs: 0 }),
    ]);
    expect(rig.of('reconnected')).toEqual([
      { type: 'reconnected', reason: 'session_expired', attempt: 1, replayedItems: 2 },
    ]);
    const second = rig.sim.connections[1] as SimulatorConnection;
    const items = await replayed(second, 2);
    expect(items.map((e) => (e.item as { role: string }).role)).toEqual(['user', 'assistant']);
    expect(wire(second)[0]?.type).toBe('session.update');
    expect((await first.closed).code).toBe(1001);
    await rig.closeAndExpectReleased();
  });
});

describe('proactive recycle before the simulator session limit', () => {
  test('between turns, shortly before sessionLimitMs: a new session takes over and the old one never expires', async () => {
    const rig = await Rig.start({ sessionLimitMs: 60_000 }, { recycleBeforeExpiryMs: 10_000 });
    const first = await rig.connect();
    await rig.exchange('Hello');
    await rig.clock.advance(48_000);
    expect(rig.sim.connections).toHaveLength(1);
    await rig.clock.advance(2_000);
    await rig.waitFor('reconnected');
    expect(rig.of('reconnecting')).toEqual([
      { type: 'reconnecting', reason: 'recycle', attempt: 1, maxAttempts: 5, delayMs: 0 },
    ]);
    expect(rig.of('reconnected')).toEqual([
      { type: 'reconnected', reason: 'recycle', attempt: 1, replayedItems: 2 },
    ]);
    const second = rig.sim.connections[1] as SimulatorConnection;
    await replayed(second, 2);
    expect(wire(second).map((e) => e.type)).toEqual([
      'session.update',
      'conversation.item.create',
      'conversation.item.create',
    ]);
    // The client closed the old connection before its limit: a normal close, no session_expired.
    expect(await first.closed).toEqual({ code: 1000, reason: 'OK' });
    expect(first.serverEvents.filter((e) => e.type === 'error')).toEqual([]);
    await rig.clock.advance(20_000);
    expect(rig.of('error')).toEqual([]);
    expect(rig.session.status).toBe('connected');
    await rig.exchange('Still there?');
    expect(second.serverEvents.filter((e) => e.type === 'response.done')).toHaveLength(1);
    await rig.closeAndExpectReleased();
  });

  test('only between turns: a response streaming at the due time defers the recycle until it is done', async () => {
    const rig = await Rig.start({ sessionLimitMs: 60_000 }, { recycleBeforeExpiryMs: 10_000 });
    const hold = createHold();
    rig.sim.script({ type: 'message', text: ['A long ', hold, 'answer.'] });
    const first = await rig.connect();
    rig.session.sendMessage('Talk to me');
    await rig.streamUntil(hold.reached);
    await rig.clock.advance(53_000);
    expect(rig.sim.connections).toHaveLength(1);
    expect(rig.of('reconnecting')).toEqual([]);
    hold.release();
    await rig.streamUntil(rig.waitFor('response_done'));
    expect(rig.of('response_done')[0]?.status).toBe('completed');
    await rig.clock.advance(1_000);
    await rig.waitFor('reconnected');
    expect(rig.of('reconnected')).toEqual([expect.objectContaining({ reason: 'recycle', replayedItems: 2 })]);
    expect((await first.closed).code).toBe(1000);
    await rig.closeAndExpectReleased();
  });
});

describe('giving up and closing', () => {
  test('exhausted attempts: reconnect_failed, status disconnected, nothing left', async () => {
    const rig = await Rig.start({}, { maxAttempts: 3 });
    await rig.connect();
    // The service goes away for good: the connection closes and every new one is refused.
    await rig.sim.close();
    await rig.waitFor('reconnecting', (e) => e.attempt === 2);
    expect(rig.of('reconnecting')[0]).toMatchObject({
      reason: 'connection_lost',
      detail: 'simulator closed',
    });
    expect(rig.session.status).toBe('reconnecting');
    await rig.clock.advance(500);
    await rig.waitFor('reconnecting', (e) => e.attempt === 3);
    await rig.clock.advance(1_000);
    await rig.waitFor('connection_status', (e) => e.status === 'disconnected');
    expect(rig.session.status).toBe('disconnected');
    const failure = rig.of('error').at(-1);
    expect(failure).toMatchObject({ source: 'session', code: 'reconnect_failed' });
    expect(failure?.error).toBeInstanceOf(ReconnectFailedError);
    expect(failure?.error).toMatchObject({ attempts: 3, cause: { code: 'service_unreachable' } });
    expect(rig.of('reconnecting').map((e) => [e.attempt, e.delayMs])).toEqual([
      [1, 0],
      [2, 500],
      [3, 1000],
    ]);
    expect(rig.clock.pendingTimers).toBe(0);
    await rig.closeAndExpectReleased();
  });

  test('close() during the backoff stops reconnecting: no timer, no socket', async () => {
    const rig = await Rig.start();
    await rig.connect();
    await rig.sim.close();
    await rig.waitFor('reconnecting', (e) => e.attempt === 2);
    expect(rig.clock.pendingTimers).toBeGreaterThan(0);
    await rig.closeAndExpectReleased();
    expect(rig.of('agent_done')).toEqual([expect.objectContaining({ reason: 'close' })]);
    expect(rig.sockets).toHaveLength(2);
  });
});
