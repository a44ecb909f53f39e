import type { EventRecorder } from '@parley/conformance';
import {
  ConnectionClosedError,
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCommand,
  type RealtimeConnection,
  type RealtimeEvent,
  type RealtimeItemInput,
  type RealtimeModel,
  type RealtimeSession,
  type RealtimeSessionOptions,
  type TurnLostError,
} from '@parley/core';
import { ALL_REALTIME_CAPABILITIES, flushMicrotasks } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { bookingSession, createdItems } from './fixtures.js';

/**
 * A provider connection the test drives by hand: it records commands and acknowledges nothing until told, so a
 * test can put the acknowledgement (the provider's `item_added`) twice, late (after the cut) or never.
 */
class HandConnection implements RealtimeConnection {
  status: 'open' | 'closed' = 'open';
  readonly commands: RealtimeCommand[] = [];
  readonly #listeners = new Set<(event: RealtimeEvent) => void>();

  send(command: RealtimeCommand): void {
    if (this.status !== 'open') throw new ConnectionClosedError(`"${command.type}": closed.`);
    this.commands.push(command);
  }

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.status = 'closed';
  }

  emit(event: RealtimeEvent): void {
    for (const listener of [...this.#listeners]) listener(event);
  }

  /** The items created so far, in order. */
  get created(): RealtimeItemInput[] {
    return createdItems(this);
  }

  /** Acknowledges the `index`-th item created on this connection, as the provider does (`item_added`). */
  ack(index = 0): void {
    const item = this.created[index];
    if (!item) throw new Error(`no item ${index} was created`);
    this.emit({ type: 'item_added', item: { ...item, itemId: item.itemId ?? 'item_server' } as never });
  }

  /** Acknowledges the tool output sent for `callId`. */
  ackOutput(callId: string): void {
    const command = this.commands.find((c) => c.type === 'sendToolOutput' && c.callId === callId);
    if (command?.type !== 'sendToolOutput') throw new Error(`no output was sent for ${callId}`);
    this.emit({
      type: 'item_added',
      item: { type: 'function_call_output', itemId: `out_${callId}`, callId, output: command.output },
    });
  }

  /** The provider drops the connection. */
  drop(): void {
    this.emit({ type: 'connection_status', status: 'disconnected', reason: 'network gone' });
    this.status = 'closed';
  }
}

class HandModel implements RealtimeModel {
  readonly specificationVersion = REALTIME_SPECIFICATION_VERSION;
  readonly provider = 'hand';
  readonly capabilities = ALL_REALTIME_CAPABILITIES;
  readonly connections: HandConnection[] = [];

  async connect(): Promise<HandConnection> {
    const connection = new HandConnection();
    this.connections.push(connection);
    return connection;
  }

  get latest(): HandConnection {
    return this.connections.at(-1) as HandConnection;
  }
}

const setup = (options?: Partial<RealtimeSessionOptions>) => bookingSession(() => new HandModel(), options);

const userTexts = (items: readonly RealtimeItemInput[]) =>
  items.flatMap((item) =>
    item.type === 'message' && item.role === 'user'
      ? item.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
      : [],
  );

const historyTexts = (session: RealtimeSession) =>
  session.history.flatMap((item) => (item.type === 'message' && item.role === 'user' ? [item.text] : []));

const turnLost = (log: EventRecorder) =>
  log.of('error').flatMap((e) => (e.code === 'turn_lost' ? [e.error as TurnLostError] : []));

describe('a user message the provider never acknowledged before the cut', () => {
  test('never acknowledged: replayed once into the new connection, with the item id it was sent with', async () => {
    const { model, session, log } = setup();
    await session.connect();
    const first = model.latest;
    session.sendMessage('Book it for eight.', { respond: false });
    const [sent] = first.created;
    expect(sent?.itemId).toEqual(expect.any(String));

    first.drop();
    await log.waitFor('reconnected');

    const second = model.latest;
    expect(second).not.toBe(first);
    expect(second.created).toEqual([sent]);
    expect(log.of('reconnected')).toMatchObject([{ replayedItems: 1 }]);
    expect(turnLost(log)).toEqual([]);
    // The new connection acknowledges it: it enters the history once.
    second.ack(0);
    await flushMicrotasks();
    expect(historyTexts(session)).toEqual(['Book it for eight.']);
    await session.close();
  });

  test('acknowledged twice before the cut: in history once, replayed once (with the history), not again', async () => {
    const { model, session, log } = setup();
    await session.connect();
    const first = model.latest;
    session.sendMessage('Book it for eight.', { respond: false });
    first.ack(0);
    first.ack(0);
    expect(historyTexts(session)).toEqual(['Book it for eight.']);

    first.drop();
    await log.waitFor('reconnected');

    expect(userTexts(model.latest.created)).toEqual(['Book it for eight.']);
    expect(model.latest.created[0]?.itemId).toBe(first.created[0]?.itemId);
    expect(historyTexts(session)).toEqual(['Book it for eight.']);
    await session.close();
  });

  test('acknowledged late, after the cut: the late acknowledgement changes nothing; replayed once', async () => {
    const { clock, model, session, log } = setup();
    await session.connect();
    const first = model.latest;
    session.sendMessage('Book it for eight.', { respond: false });

    first.drop();
    first.status = 'open';
    first.ack(0); // arrives on the cut connection
    await log.waitFor('reconnected');

    const second = model.latest;
    expect(userTexts(second.created)).toEqual(['Book it for eight.']);
    expect(historyTexts(session)).toEqual([]);
    second.ack(0);
    second.ack(0); // and twice on the new one
    await flushMicrotasks();
    expect(historyTexts(session)).toEqual(['Book it for eight.']);
    // A second cut carries nothing more: it was acknowledged.
    second.drop();
    await clock.advance(500); // a drop soon after a reconnect backs off
    await log.waitFor('reconnected', () => true, 2);
    expect(userTexts(model.latest.created)).toEqual(['Book it for eight.']);
    await session.close();
  });

  test('without reconnecting: named in the turn_lost error', async () => {
    const { model, session, log } = setup({ reconnect: false });
    await session.connect();
    session.sendMessage('Book it for eight.');
    const itemId = model.latest.created[0]?.itemId;

    model.latest.drop();
    await log.waitFor('connection_status', (e) => e.status === 'disconnected');

    const [lost] = turnLost(log);
    expect(lost?.itemIds).toEqual([itemId]);
    expect(lost?.clientRequestIds).toHaveLength(1);
    expect(lost?.message).toContain(`user message ${itemId}`);
    expect(historyTexts(session)).toEqual([]);
    await session.close();
  });

  test('the reconnect gives up: the carried message is named in a turn_lost error', async () => {
    const { model, session, log } = setup({ reconnect: { jitter: 0, maxAttempts: 1 } });
    await session.connect();
    session.sendMessage('Book it for eight.', { respond: false });
    const itemId = model.latest.created[0]?.itemId;
    model.connect = () => Promise.reject(new Error('no network'));

    model.connections[0]?.drop();
    await log.waitFor('connection_status', (e) => e.status === 'disconnected');

    expect(turnLost(log).map((e) => e.itemIds)).toEqual([[itemId]]);
    expect(log.of('error').map((e) => e.code)).toEqual(['turn_lost', 'reconnect_failed']);
    await session.close();
  });
});

describe('a tool output at the cut', () => {
  async function called(options: Partial<RealtimeSessionOptions> = {}) {
    const rig = setup(options);
    await rig.session.connect();
    const first = rig.model.latest;
    first.emit({ type: 'response_started', responseId: 'resp_1', ephemeral: false });
    first.emit({
      type: 'function_call',
      responseId: 'resp_1',
      itemId: 'fc_1',
      callId: 'call_book',
      name: 'book',
      arguments: '{"at":"8 pm"}',
    });
    first.emit({ type: 'response_done', responseId: 'resp_1', status: 'completed', ephemeral: false });
    await rig.log.waitFor('tool_done');
    return { ...rig, first };
  }

  test('acknowledged: never sent twice; the new conversation gets it once, by the replay; the tool ran once', async () => {
    const { model, session, log, runs, first } = await called();
    first.ackOutput('call_book');
    first.ackOutput('call_book');

    first.drop();
    await log.waitFor('reconnected');

    expect(runs).toEqual(['8 pm']);
    expect(first.commands.filter((c) => c.type === 'sendToolOutput')).toHaveLength(1);
    const second = model.latest;
    expect(second.commands.filter((c) => c.type === 'sendToolOutput')).toEqual([]);
    expect(second.created.filter((i) => i.type === 'function_call_output')).toEqual([
      { type: 'function_call_output', callId: 'call_book', output: 'booked for 8 pm' },
    ]);
    expect(turnLost(log).flatMap((e) => e.callIds)).toEqual([]);
    await session.close();
  });

  test('never acknowledged, reconnecting: replayed once (the tool does not run again), the call named as lost', async () => {
    const { model, session, log, runs, first } = await called();

    first.drop();
    await log.waitFor('reconnected');

    expect(runs).toEqual(['8 pm']);
    expect(model.latest.created.filter((i) => i.type === 'function_call_output')).toEqual([
      { type: 'function_call_output', callId: 'call_book', output: 'booked for 8 pm' },
    ]);
    expect(turnLost(log).map((e) => e.callIds)).toEqual([['call_book']]);
    await session.close();
  });

  test('acknowledged late, without reconnecting: named in the turn_lost error', async () => {
    const { session, log, first } = await called({ reconnect: false });

    first.drop();
    first.status = 'open';
    first.ackOutput('call_book');
    await log.waitFor('connection_status', (e) => e.status === 'disconnected');

    expect(turnLost(log).map((e) => e.callIds)).toEqual([['call_book']]);
    await session.close();
  });
});
