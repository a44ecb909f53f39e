import {
  Agent,
  type RealtimeHistoryItem,
  type RealtimeItem,
  type RealtimeSession,
  SessionNotConnectedError,
  tool,
} from '@parley/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { RealtimeHarness } from '../harness.js';
import { type ConformanceScenario, ScenarioSkippedError } from '../scenario.js';
import { commandsOf, type EventRecorder, withSession } from '../support.js';

/** 100 ms of PCM16 audio at 24 kHz. */
const CHUNK = new Uint8Array(4800);

const saidInConversation = (item: RealtimeItem, text: string) =>
  item.type === 'message' &&
  item.role === 'user' &&
  item.content.some((part) => part.type === 'text' && part.text === text);

const saidInHistory = (item: RealtimeHistoryItem, text: string) =>
  item.type === 'message' && item.role === 'user' && item.text === text;

function cannot(harness: RealtimeHarness, control: string): ScenarioSkippedError {
  return new ScenarioSkippedError(
    `the harness of provider "${harness.model.provider}" cannot fault its transport (no ${control}())`,
  );
}

/** What the app sends in these scenarios: a user message where it can ask for none to be answered, else audio. */
function appSend(harness: RealtimeHarness, session: RealtimeSession, text: string): () => void {
  if (harness.model.capabilities.responseRequests) return () => session.sendMessage(text, { respond: false });
  return () => session.sendAudio(CHUNK);
}

/**
 * Once reconnected, the app's sends arrive again. With user messages: each message the app was not told failed
 * (`kept`) and each it sent again (`resent`) is in the new conversation and in history exactly once. With audio:
 * the chunk sent after the reconnect is the only one received (the refused ones never left).
 */
async function expectSendsArriveOnce(
  harness: RealtimeHarness,
  session: RealtimeSession,
  events: EventRecorder,
  texts: readonly string[],
): Promise<void> {
  if (!harness.model.capabilities.responseRequests) {
    session.sendAudio(CHUNK);
    const received = await harness.waitForCommand('appendInputAudio');
    expect(received.map((c) => (c.type === 'appendInputAudio' ? c.audio.byteLength : 0))).toEqual([
      CHUNK.byteLength,
    ]);
    return;
  }
  // A reply after everything: once it is done, the backend has taken everything sent before it.
  await harness.respondWith({ output: [{ type: 'message', text: 'Noted.' }] });
  await session.generateResponse().done;
  const conversation = await harness.conversation();
  for (const text of texts) {
    expect(
      conversation.filter((item) => saidInConversation(item, text)),
      text,
    ).toHaveLength(1);
    expect(
      session.history.filter((item) => saidInHistory(item, text)),
      text,
    ).toHaveLength(1);
  }
  expect(events.of('error').filter((e) => e.code === 'turn_lost')).toEqual([]);
}

/**
 * A connection whose transport stops being open without a close or an error (a closing handshake never
 * acknowledged) is a disconnect as soon as the session finds it so: the send that finds it, and every send until
 * the session is connected again, is refused with `SessionNotConnectedError` rather than written into the dead
 * socket; the session reconnects at once; a message sent just before, never acknowledged, reaches the new
 * conversation exactly once.
 */
export const silentStopScenario: ConformanceScenario = {
  name: 'a connection that stops being open without a close: sends are refused, typed, and the session reconnects',
  requires: [],
  exercises: ['responseRequests'],
  async run(harness) {
    const kept = 'Remember the code 4711.';
    const refused = 'Are you still there?';
    await withSession(harness, new Agent({ name: 'Steady' }), async (session, events) => {
      await session.connect();
      const stop = harness.connectionStopsSilently;
      if (!stop) throw cannot(harness, 'connectionStopsSilently');
      if (harness.model.capabilities.responseRequests) session.sendMessage(kept, { respond: false });
      await stop();

      const send = appSend(harness, session, refused);
      expect(send).toThrow(SessionNotConnectedError);
      // Refused again, not lost, until the session is connected again.
      expect(send).toThrow(SessionNotConnectedError);
      const reconnecting = await events.waitFor('reconnecting');
      expect(reconnecting).toMatchObject({ reason: 'connection_lost', attempt: 1 });
      await events.waitFor('reconnected');
      expect(session.status).toBe('connected');

      if (harness.model.capabilities.responseRequests) send();
      await expectSendsArriveOnce(harness, session, events, [kept, refused]);
    });
  },
};

/**
 * A command whose write fails at the transport (a broken socket) reaches the app as a typed refusal and an `error`
 * event (`connection_lost`), never as the transport's raw exception, and the session takes the disconnect path
 * at once: it reconnects, and the command, sent again, arrives once.
 */
export const writeFailureScenario: ConformanceScenario = {
  name: 'a write that fails at the transport is a typed refusal, a connection_lost error and a reconnect',
  requires: [],
  exercises: ['responseRequests'],
  async run(harness) {
    const text = 'Book a table for two.';
    await withSession(harness, new Agent({ name: 'Steady' }), async (session, events) => {
      await session.connect();
      const failNextWrite = harness.failNextWrite;
      if (!failNextWrite) throw cannot(harness, 'failNextWrite');
      await failNextWrite(harness.model.capabilities.responseRequests ? 'createItem' : 'appendInputAudio');

      const send = appSend(harness, session, text);
      let thrown: unknown;
      try {
        send();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SessionNotConnectedError);
      expect(send).toThrow(SessionNotConnectedError);
      const lost = await events.waitFor('error', (e) => e.code === 'connection_lost');
      expect(lost.source).toBe('session');
      const reconnecting = await events.waitFor('reconnecting');
      expect(reconnecting).toMatchObject({ reason: 'connection_lost', attempt: 1 });
      await events.waitFor('reconnected');

      if (harness.model.capabilities.responseRequests) send();
      await expectSendsArriveOnce(harness, session, events, [text]);
      expect(events.of('error').map((e) => e.code)).toEqual(['connection_lost']);
    });
  },
};

/**
 * A tool output whose write fails at the transport: an `error` event (`connection_lost`), never a throw, and the
 * disconnect path. The tool ran once and does not run again; the lost turn names the call; after the reconnect the
 * output reaches the new conversation exactly once (replayed with the history).
 */
export const toolOutputWriteFailureScenario: ConformanceScenario = {
  name: 'a tool output whose write fails at the transport is reported, named by the lost turn, and replayed once',
  requires: ['responseRequests'],
  async run(harness) {
    const runs: string[] = [];
    const book = tool({
      name: 'book_table',
      description: 'Books a table',
      parameters: z.object({ at: z.string() }),
      execute: ({ at }) => {
        runs.push(at);
        return `booked for ${at}`;
      },
    });
    const callId = 'call_transport_fault';
    await withSession(harness, new Agent({ name: 'Host', tools: [book] }), async (session, events) => {
      await session.connect();
      const failNextWrite = harness.failNextWrite;
      if (!failNextWrite) throw cannot(harness, 'failNextWrite');
      await harness.respondWith({
        output: [{ type: 'function_call', name: 'book_table', arguments: { at: '8 pm' }, callId }],
      });
      await failNextWrite('sendToolOutput');

      session.sendMessage('A table at 8 pm, please.');
      const lost = await events.waitFor('error', (e) => e.code === 'connection_lost');
      expect(lost.source).toBe('session');
      await events.waitFor('reconnected');
      const turnLost = await events.waitFor('error', (e) => e.code === 'turn_lost');
      expect(turnLost.error).toMatchObject({ callIds: [callId] });
      expect(runs).toEqual(['8 pm']);

      await harness.respondWith({ output: [{ type: 'message', text: 'Booked.' }] });
      await session.generateResponse().done;
      const outputs = (await harness.conversation()).filter(
        (item) => item.type === 'function_call_output' && item.callId === callId,
      );
      expect(outputs).toMatchObject([{ output: 'booked for 8 pm' }]);
      expect(commandsOf(await harness.commands(), 'sendToolOutput').length).toBeLessThanOrEqual(1);
      expect(runs).toEqual(['8 pm']);
    });
  },
};
