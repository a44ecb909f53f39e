import {
  Agent,
  type RealtimeCapabilities,
  type RealtimeItem,
  type RealtimeSessionOptions,
  tool,
} from '@parley/core';
import { flushMicrotasks, type ManualClock, MockRealtimeModel } from '@parley/mock';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { sessionRig } from './fixtures.js';

/**
 * Providers that acknowledge nothing (`contentAcknowledgements: false`) and providers that resume a conversation on a
 * new connection (`sessionResumption`): what the session sends is never lost and never doubled, and a resumed
 * connection gets only what its resume token does not hold.
 */

// Recycles follow wall-clock limits (`session_expiring`): wall time is frozen so the two reads agree.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const note = tool({
  name: 'note',
  description: 'Notes a thing down',
  parameters: z.object({ thing: z.string() }),
  execute: ({ thing }) => `noted ${thing}`,
});

function setup(capabilities: Partial<RealtimeCapabilities>, options: Partial<RealtimeSessionOptions> = {}) {
  const createModel = (clock: ManualClock) =>
    new MockRealtimeModel({ clock, capabilities: { autoToolResponseGeneration: false, ...capabilities } });
  return sessionRig(new Agent({ name: 'Keeper', tools: [note] }), createModel, options);
}

/** A connected session after one answered turn ("Remember 4711." → "First answer."), its events delivered. */
async function afterOneTurn(
  capabilities: Partial<RealtimeCapabilities>,
  options: Partial<RealtimeSessionOptions> = {},
) {
  const rig = setup(capabilities, options);
  await rig.session.connect();
  rig.model.respondWith('First answer.');
  rig.session.sendMessage('Remember 4711.');
  await rig.log.waitFor('response_done');
  await flushMicrotasks();
  return rig;
}

/** The user messages with `text` in a provider conversation. */
const said = (conversation: readonly RealtimeItem[], text: string) =>
  conversation.filter(
    (item) =>
      item.type === 'message' && item.content.some((part) => part.type === 'text' && part.text === text),
  );

/** The texts of the items created on a connection. */
const createdTexts = (commands: readonly { type: string; item?: RealtimeItem | object }[]) =>
  commands.flatMap((c) =>
    c.type === 'createItem' && c.item && 'content' in c.item
      ? (c.item.content as { type: string; text?: string }[]).map((p) => p.text ?? '')
      : [],
  );

describe('a provider that acknowledges nothing (contentAcknowledgements: false)', () => {
  test('a sent message is in history at once; a cut replays it once and names nothing lost', async () => {
    const { model, session, log } = setup({ contentAcknowledgements: false });
    await session.connect();
    session.sendMessage('Remember 4711.', { respond: false });
    // No echo comes: the session recorded what it sent itself.
    expect(session.history).toMatchObject([{ role: 'user', text: 'Remember 4711.' }]);
    await flushMicrotasks();
    expect(log.of('history_added')).toHaveLength(1);
    expect(model.connection.commands.filter((c) => c.type === 'createItem')).toHaveLength(1);
    model.connection.disconnect();
    await log.waitFor('reconnected');
    expect(said(model.connection.conversation, 'Remember 4711.')).toHaveLength(1);
    expect(session.history.filter((i) => i.type === 'message')).toHaveLength(1);
    expect(log.of('error').filter((e) => e.code === 'turn_lost')).toEqual([]);
    await session.close();
  });

  test('with acknowledgements the same message waits for its echo and is carried over a cut (the rule it replaces)', async () => {
    const { model, session, log } = setup({});
    await session.connect();
    session.sendMessage('Remember 4711.', { respond: false });
    expect(session.history).toEqual([]);
    model.connection.disconnect();
    await log.waitFor('reconnected');
    await flushMicrotasks();
    expect(said(model.connection.conversation, 'Remember 4711.')).toHaveLength(1);
    expect(session.history).toMatchObject([{ role: 'user', text: 'Remember 4711.' }]);
    await session.close();
  });

  test('a tool output waits for no echo: a recycle is not held by it, and it is replayed once', async () => {
    const { clock, model, session, log } = setup({ contentAcknowledgements: false });
    await session.connect();
    model.respondWith(
      { output: [{ type: 'function_call', name: 'note', arguments: { thing: 'milk' }, callId: 'call_1' }] },
      'Noted.',
    );
    session.sendMessage('Note milk.');
    await log.waitFor('response_done', undefined, 2);
    expect(session.history.find((i) => i.type === 'function_call')).toMatchObject({ output: 'noted milk' });
    model.connection.emit({ type: 'session_expiring', expiresAt: Date.now() + 20_000 });
    await clock.advance(10_000);
    await log.waitFor('reconnected');
    const replayed = model.connection.commands.filter(
      (c) => c.type === 'createItem' && c.item.type === 'function_call_output',
    );
    expect(replayed).toHaveLength(1);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });
});

describe('a provider that resumes conversations (sessionResumption)', () => {
  test('a reconnect resumes: nothing the token holds is replayed, what it does not hold is replayed once', async () => {
    const { model, session, log } = await afterOneTurn({ sessionResumption: true });
    // After the token the mock offered at the end of that response:
    session.sendMessage('Also 42.', { respond: false });
    await flushMicrotasks();
    model.connection.disconnect();
    const reconnected = await log.waitFor('reconnected');
    expect(reconnected).toMatchObject({ resumed: true, replayedItems: 1 });
    expect(model.connection.resumed).toBe(true);
    expect(createdTexts(model.connection.commands)).toEqual(['Also 42.']);
    const conversation = model.connection.conversation;
    expect(said(conversation, 'Remember 4711.')).toHaveLength(1);
    expect(said(conversation, 'Also 42.')).toHaveLength(1);
    await session.close();
  });

  test('without the capability the same reconnect replays the whole history as text (the rule it replaces)', async () => {
    const { model, session, log } = await afterOneTurn({});
    model.connection.disconnect();
    const reconnected = await log.waitFor('reconnected');
    expect(reconnected).not.toHaveProperty('resumed');
    expect(createdTexts(model.connection.commands)).toEqual(['Remember 4711.', 'First answer.']);
    await session.close();
  });

  test('content the provider had not taken in when it issued its token is replayed, even if sent before it', async () => {
    const { model, session, log } = setup({ sessionResumption: true, contentAcknowledgements: false });
    await session.connect();
    session.sendMessage('One.', { respond: false });
    await flushMicrotasks();
    const token = model.connection.issueResumeToken();
    session.sendMessage('Two.', { respond: false });
    await flushMicrotasks();
    // The token arrives (again) after both were sent, and says it holds only the first content command.
    model.connection.emit({ type: 'resume_token', token, contentCommands: 1 });
    await flushMicrotasks();
    model.connection.disconnect();
    expect(await log.waitFor('reconnected')).toMatchObject({ resumed: true, replayedItems: 1 });
    expect(createdTexts(model.connection.commands)).toEqual(['Two.']);
    expect(said(model.connection.conversation, 'One.')).toHaveLength(1);
    expect(said(model.connection.conversation, 'Two.')).toHaveLength(1);
    await session.close();
  });

  test('a token the provider no longer resumes: a new conversation, and the whole history is replayed', async () => {
    const { model, session, log } = await afterOneTurn({ sessionResumption: true });
    model.connection.emit({ type: 'resume_token', token: 'expired_token', contentCommands: 1 });
    await flushMicrotasks();
    model.connection.disconnect();
    const reconnected = await log.waitFor('reconnected');
    expect(reconnected).not.toHaveProperty('resumed');
    expect(model.connection.resumed).toBe(false);
    expect(createdTexts(model.connection.commands)).toEqual(['Remember 4711.', 'First answer.']);
    await session.close();
  });

  test('a recycle before the provider goes away resumes with the token and replays nothing', async () => {
    const { clock, model, session, log } = await afterOneTurn({ sessionResumption: true });
    // The provider's "going away soon" notice.
    model.connection.emit({ type: 'session_expiring', expiresAt: Date.now() + 20_000 });
    await clock.advance(10_000);
    const reconnected = await log.waitFor('reconnected');
    expect(reconnected).toMatchObject({ reason: 'recycle', resumed: true, replayedItems: 0 });
    expect(model.connections).toHaveLength(2);
    expect(createdTexts(model.connection.commands)).toEqual([]);
    expect(said(model.connection.conversation, 'Remember 4711.')).toHaveLength(1);
    await session.close();
  });

  test('a manual connect() after a disconnect starts a new conversation: the token is not used', async () => {
    const { model, session, log } = await afterOneTurn({ sessionResumption: true }, { reconnect: false });
    model.connection.disconnect();
    await log.waitFor('connection_status', (e) => e.status === 'disconnected');
    await session.connect();
    expect(model.connection.resumed).toBe(false);
    await session.close();
  });
});
