import { EventRecorder } from '@parley/conformance';
import { Agent, type RealtimeCapabilities, RealtimeSession } from '@parley/core';
import { flushMicrotasks, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

/**
 * What `responseRequests` used to bundle, each its own flag: content during a response (`contentDuringResponse`), a
 * commit that answers by itself (`commitStartsResponse`), per-response instructions (`responseInstructions`). Each
 * rule is checked with its flag on and off on the mock, which plays both kinds of provider.
 */

function setup(capabilities: Partial<RealtimeCapabilities>, turnDetection?: null) {
  const model = new MockRealtimeModel({ capabilities });
  const session = new RealtimeSession(new Agent({ name: 'Taker' }), {
    model,
    ...(turnDetection === null && { config: { turnDetection: null } }),
  });
  const log = new EventRecorder(session);
  const sent = (type: string) => model.connections.flatMap((c) => c.commands).filter((c) => c.type === type);
  return { model, session, log, sent };
}

/** 100 ms of PCM16 24 kHz silence: enough for a commit. */
const AUDIO = new Uint8Array(4800);

describe('contentDuringResponse: user messages sent while a response streams', () => {
  test('off: they are held until the response is done, then go out before their one response request', async () => {
    const { model, session, log, sent } = setup({ contentDuringResponse: false });
    await session.connect();
    model.respondWith(
      { output: [{ type: 'message', text: 'Let me think.' }, { type: 'pause' }] },
      'One answer.',
    );
    session.sendMessage('First.');
    await log.waitFor('response_started');
    session.sendMessage('Second.');
    session.sendMessage('Third.');
    await flushMicrotasks();
    // Nothing reached the provider while it speaks: the answer in progress is not interrupted.
    expect(sent('createItem')).toHaveLength(1);
    expect(sent('createResponse')).toHaveLength(1);
    model.connection.resume();
    expect((await log.waitFor('response_done')).status).toBe('completed');
    await log.waitFor('response_done', undefined, 2);
    const types = model.connection.commands.map((c) => c.type);
    expect(types).toEqual(['createItem', 'createResponse', 'createItem', 'createItem', 'createResponse']);
    expect(session.history.map((i) => (i.type === 'message' ? i.text : ''))).toEqual([
      'First.',
      'Let me think.',
      'Second.',
      'Third.',
      'One answer.',
    ]);
    await session.close();
    model.assertComplete();
  });

  test('on: they go out at once and the response goes on', async () => {
    const { model, session, log, sent } = setup({});
    await session.connect();
    model.respondWith(
      { output: [{ type: 'message', text: 'Let me think.' }, { type: 'pause' }] },
      'One answer.',
    );
    session.sendMessage('First.');
    await log.waitFor('response_started');
    session.sendMessage('Second.');
    await flushMicrotasks();
    expect(sent('createItem')).toHaveLength(2);
    model.connection.resume();
    expect((await log.waitFor('response_done')).status).toBe('completed');
    await log.waitFor('response_done', undefined, 2);
    expect(sent('createResponse')).toHaveLength(2);
    await session.close();
  });

  test('off: a message held when the connection drops is replayed once into the new conversation', async () => {
    const { model, session, log } = setup({ contentDuringResponse: false });
    await session.connect();
    model.respondWith({ output: [{ type: 'message', text: 'Let me think.' }, { type: 'pause' }] });
    session.sendMessage('First.');
    await log.waitFor('response_started');
    session.sendMessage('Held.', { respond: false });
    await flushMicrotasks();
    model.connection.disconnect();
    await log.waitFor('reconnected');
    await flushMicrotasks();
    const held = model.connection.conversation.filter(
      (item) => item.type === 'message' && item.content.some((p) => p.type === 'text' && p.text === 'Held.'),
    );
    expect(held).toHaveLength(1);
    expect(session.history.filter((i) => i.type === 'message' && i.text === 'Held.')).toHaveLength(1);
    expect(log.of('error').filter((e) => e.code === 'turn_lost')).toHaveLength(1);
    await session.close();
  });
});

describe('commitStartsResponse: push-to-talk', () => {
  test('on: a commit is answered once, by the provider; the session asks for nothing', async () => {
    const { model, session, log, sent } = setup({ commitStartsResponse: true }, null);
    await session.connect();
    model.respondWith('Heard you.');
    session.sendAudio(AUDIO);
    session.commitAudio();
    const done = await log.waitFor('response_done');
    expect(done.status).toBe('completed');
    expect(sent('createResponse')).toEqual([]);
    expect(log.of('response_started')).toHaveLength(1);
    model.respondWith('Again.');
    session.sendAudio(AUDIO);
    session.commitAudio({ respond: true });
    await log.waitFor('response_done', undefined, 2);
    expect(sent('createResponse')).toEqual([]);
    await session.close();
    model.assertComplete();
  });

  test('on: respond: false cannot stop the provider, and the session says so', async () => {
    const { model, session, log } = setup({ commitStartsResponse: true }, null);
    await session.connect();
    model.respondWith('Answering anyway.');
    session.sendAudio(AUDIO);
    session.commitAudio({ respond: false });
    await flushMicrotasks();
    expect(log.of('warning').map((w) => w.code)).toContain('commit_starts_response');
    await log.waitFor('response_done');
    await session.close();
  });

  test('off: the session asks for the answer of a push-to-talk commit, once', async () => {
    const { model, session, log, sent } = setup({}, null);
    await session.connect();
    model.respondWith('Heard you.');
    session.sendAudio(AUDIO);
    session.commitAudio();
    await log.waitFor('response_done');
    expect(sent('createResponse')).toHaveLength(1);
    expect(log.of('response_started')).toHaveLength(1);
    await session.close();
  });
});

describe('responseInstructions: instructions for one response', () => {
  test('off: they still go out, and a warning says they stay in the model context', async () => {
    const { model, session, log, sent } = setup({ responseInstructions: false });
    await session.connect();
    model.respondWith('Short.');
    const handle = session.generateResponse({ instructions: 'Be short.' });
    await handle.done;
    const warning = log.of('warning').find((w) => w.code === 'response_instructions_persist');
    expect(warning?.message).toContain(handle.clientRequestId);
    expect(sent('createResponse')).toMatchObject([{ instructions: 'Be short.' }]);
    // The provider kept them in its context; the session's history does not show them.
    expect(model.connection.conversation.some((i) => i.type === 'message' && i.role === 'system')).toBe(true);
    expect(session.history.some((i) => i.type === 'message' && i.role === 'system')).toBe(false);
    await session.close();
  });

  test('on (the default): no warning', async () => {
    const { model, session, log } = setup({});
    await session.connect();
    model.respondWith('Short.');
    await session.generateResponse({ instructions: 'Be short.' }).done;
    expect(log.of('warning')).toEqual([]);
    await session.close();
  });
});
