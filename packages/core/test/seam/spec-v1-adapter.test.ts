import { EventRecorder } from '@parley/conformance';
import {
  Agent,
  REALTIME_SPECIFICATION_VERSION,
  REALTIME_SPECIFICATION_VERSION_V1,
  type RealtimeCommandV1,
  type RealtimeConnectionV1,
  type RealtimeEventV1,
  type RealtimeModelV1,
  RealtimeSession,
  UserError,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel, mockPcm16 } from '@parley/mock';
import { expect, test } from 'vitest';

/**
 * A provider written against version 1 of the realtime specification: it speaks `conversation`, `audioEndMs` and
 * `turn_detected`. The session of this release speaks version 2 and must still drive it, translating both ways.
 */
class LegacyConnection implements RealtimeConnectionV1 {
  status: 'open' | 'closed' = 'open';
  readonly sent: RealtimeCommandV1[] = [];
  readonly #listeners = new Set<(event: RealtimeEventV1) => void>();

  send(command: RealtimeCommandV1): void {
    this.sent.push(command);
  }
  onEvent(listener: (event: RealtimeEventV1) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  emit(event: RealtimeEventV1): void {
    for (const listener of this.#listeners) listener(event);
  }
  async close(): Promise<void> {
    this.status = 'closed';
  }
  lastCreate(): Extract<RealtimeCommandV1, { type: 'createResponse' }> {
    const creates = this.sent.filter((c) => c.type === 'createResponse');
    const last = creates.at(-1);
    if (last?.type !== 'createResponse') throw new Error('no createResponse was sent');
    return last;
  }
}

function legacyModel(connection: LegacyConnection): RealtimeModelV1 {
  return {
    specificationVersion: REALTIME_SPECIFICATION_VERSION_V1,
    provider: 'legacy',
    capabilities: new MockRealtimeModel().capabilities,
    connect: async () => connection,
  };
}

const agent = new Agent({ name: 'Speaker' });

test('a version 1 provider still runs: ephemeral, heardMs and user_turn reach it as conversation, audioEndMs and turn_detected', async () => {
  expect(REALTIME_SPECIFICATION_VERSION).toBe('parley.realtime.v2');
  const connection = new LegacyConnection();
  const clock = new ManualClock();
  const session = new RealtimeSession(agent, { model: legacyModel(connection), clock });
  const log = new EventRecorder(session);
  await session.connect();

  // An ephemeral response goes out as conversation: 'none' and comes back as ephemeral: true.
  const code = session.generateResponse({ instructions: 'Read the code.', addToHistory: false });
  await flushMicrotasks();
  const ephemeral = connection.lastCreate();
  expect(ephemeral).toMatchObject({ conversation: 'none' });
  expect(ephemeral).not.toHaveProperty('ephemeral');
  const { clientRequestId } = ephemeral;
  connection.emit({ type: 'response_started', responseId: 'r1', clientRequestId, conversation: 'none' });
  connection.emit({
    type: 'response_done',
    responseId: 'r1',
    clientRequestId,
    status: 'completed',
    conversation: 'none',
  });
  await code.done;
  await flushMicrotasks();
  expect(log.of('response_started').at(-1)).toMatchObject({ responseId: 'r1', ephemeral: true });
  expect(log.of('response_done').at(-1)).toMatchObject({ responseId: 'r1', ephemeral: true });

  // A conversation response the user interrupts: the cut reaches the provider as audioEndMs, its end reason
  // turn_detected reaches the app as user_turn.
  const answer = session.generateResponse();
  await flushMicrotasks();
  const second = connection.lastCreate();
  expect(second).toMatchObject({ conversation: 'default' });
  connection.emit({
    type: 'response_started',
    responseId: 'r2',
    clientRequestId: second.clientRequestId,
    conversation: 'default',
  });
  connection.emit({ type: 'message_started', responseId: 'r2', itemId: 'm2' });
  connection.emit({ type: 'audio_delta', responseId: 'r2', itemId: 'm2', audio: mockPcm16(500) });
  await flushMicrotasks();
  await clock.advance(120);
  session.interrupt();
  expect(connection.sent.filter((c) => c.type === 'truncateItem')).toEqual([
    { type: 'truncateItem', itemId: 'm2', audioEndMs: 120 },
  ]);
  connection.emit({
    type: 'response_done',
    responseId: 'r2',
    clientRequestId: second.clientRequestId,
    status: 'cancelled',
    conversation: 'default',
    reason: 'turn_detected',
  });
  await answer.done;
  await flushMicrotasks();
  expect(log.of('response_done').at(-1)).toMatchObject({
    responseId: 'r2',
    ephemeral: false,
    status: 'cancelled',
    reason: 'user_turn',
  });
  await session.close();
});

test('a model of a specification version this release does not know is refused before connecting', () => {
  const connection = new LegacyConnection();
  const model = { ...legacyModel(connection), specificationVersion: 'parley.realtime.v9' };
  expect(() => new RealtimeSession(agent, { model: model as never })).toThrow(UserError);
  expect(() => new RealtimeSession(agent, { model: model as never })).toThrow(
    /implements specification parley\.realtime\.v9, but this @parley\/core takes parley\.realtime\.v2 or parley\.realtime\.v1/,
  );
});
