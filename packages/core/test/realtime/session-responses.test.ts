import { EventRecorder } from '@parley/conformance';
import {
  Agent,
  CapabilityNotSupportedError,
  RealtimeSession,
  ResponseRefusedError,
  ResponseTimeoutError,
  SessionClosedError,
  SessionNotConnectedError,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel, mockPcm16 } from '@parley/mock';
import { describe, expect, test } from 'vitest';

const agent = new Agent({ name: 'Host', instructions: 'Be brief.' });

async function connected(
  model = new MockRealtimeModel(),
  options: { clock?: ManualClock; responseTimeoutMs?: number } = {},
) {
  const session = new RealtimeSession(agent, { model, ...options });
  const log = new EventRecorder(session);
  await session.connect();
  return { model, session, log };
}

describe('generateResponse()', () => {
  test('resolves with the id of the response the provider started for it', async () => {
    const { model, session, log } = await connected();
    model.respondWith('Hi!');
    const handle = session.generateResponse({ instructions: 'Greet the user', toolChoice: 'none' });
    const responseId = await handle;
    await flushMicrotasks();
    expect(model.commands.at(-1)).toEqual({
      type: 'createResponse',
      clientRequestId: handle.clientRequestId,
      ephemeral: false,
      instructions: 'Greet the user',
      toolChoice: 'none',
    });
    expect(log.of('response_started')[0]).toMatchObject({
      responseId,
      clientRequestId: handle.clientRequestId,
    });
    expect(await handle.done).toEqual({ responseId, status: 'completed' });
    await session.close();
  });

  test('a request made while a response is active waits for its response_done', async () => {
    const { model, session } = await connected();
    model.respondWith({ output: [{ type: 'message', text: 'First.' }, { type: 'pause' }] }, 'Second.');
    const first = session.generateResponse();
    const second = session.generateResponse();
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'createResponse')).toHaveLength(1);
    expect(
      model.connection.commands.some(
        (c) => c.type === 'createResponse' && c.clientRequestId === second.clientRequestId,
      ),
    ).toBe(false);
    model.connection.resume();
    const firstId = await first;
    const secondId = await second;
    expect(secondId).not.toBe(firstId);
    expect(model.commands.filter((c) => c.type === 'createResponse')).toHaveLength(2);
    await flushMicrotasks();
    expect(model.connection.listenerErrors).toEqual([]);
    await session.close();
  });

  test('a provider refusal rejects the handle with ResponseRefusedError and is an error event; the queue moves on', async () => {
    const { model, session, log } = await connected();
    model.connection.refuseNextResponse('rate_limit_exceeded', 'Slow down.');
    const refused = session.generateResponse();
    const error = (await refused.catch((e: unknown) => e)) as ResponseRefusedError;
    expect(error).toBeInstanceOf(ResponseRefusedError);
    expect(error).toMatchObject({
      code: 'response_refused',
      providerCode: 'rate_limit_exceeded',
      clientRequestId: refused.clientRequestId,
    });
    await expect(refused.done).rejects.toBe(error);
    expect(log.of('error')).toEqual([
      expect.objectContaining({
        source: 'provider',
        code: 'rate_limit_exceeded',
        message: 'Slow down.',
        clientRequestId: refused.clientRequestId,
      }),
    ]);
    model.respondWith('Now it works.');
    await expect(session.generateResponse()).resolves.toMatch(/^resp_/);
    await session.close();
  });

  test('a refused handle nobody awaits does not become an unhandled rejection', async () => {
    const { model, session, log } = await connected();
    model.connection.refuseNextResponse('server_error');
    session.generateResponse();
    await flushMicrotasks();
    expect(log.of('error')).toHaveLength(1);
    await session.close();
  });

  test('times out on the injected clock when the provider never starts it, and releases the queue', async () => {
    const clock = new ManualClock();
    const { model, session, log } = await connected(new MockRealtimeModel(), {
      clock,
      responseTimeoutMs: 2000,
    });
    model.connection.dropNextResponseRequest();
    const lost = session.generateResponse();
    const next = session.generateResponse();
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'createResponse')).toHaveLength(1);
    await clock.advance(1999);
    expect(log.of('error')).toHaveLength(0);
    await clock.advance(1);
    const error = await lost.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTimeoutError);
    expect(error).toMatchObject({
      code: 'response_timeout',
      timeoutMs: 2000,
      clientRequestId: lost.clientRequestId,
    });
    // The request's id is on the event itself, where a provider refusal carries it.
    expect(log.of('error')[0]).toMatchObject({
      source: 'session',
      code: 'response_timeout',
      clientRequestId: lost.clientRequestId,
    });
    model.respondWith('Late but here.');
    await expect(next).resolves.toMatch(/^resp_/);
    expect(clock.pendingTimers).toBe(0);
    await session.close();
  });

  test('a response that starts after its request timed out is cancelled by id on arrival', async () => {
    const clock = new ManualClock();
    const { model, session, log } = await connected(new MockRealtimeModel(), {
      clock,
      responseTimeoutMs: 1000,
    });
    model.connection.dropNextResponseRequest();
    const lost = session.generateResponse();
    await clock.advance(1000);
    await expect(lost).rejects.toBeInstanceOf(ResponseTimeoutError);
    // The provider finally answers the old request.
    model.connection.emit({
      type: 'response_started',
      responseId: 'resp_late',
      clientRequestId: lost.clientRequestId,
      ephemeral: false,
    });
    await flushMicrotasks();
    expect(model.commands.at(-1)).toEqual({ type: 'cancelResponse', responseId: 'resp_late' });
    expect(log.of('response_started').at(-1)).toMatchObject({ responseId: 'resp_late' });
    await session.close();
  });
});

describe('messages and audio', () => {
  test('sendMessage adds a user item and asks for a reply; both reach history', async () => {
    const { model, session, log } = await connected();
    model.respondWith('Hello, Ada.');
    session.sendMessage('My name is Ada.');
    await flushMicrotasks();
    expect(model.commands.map((c) => c.type)).toEqual(['createItem', 'createResponse']);
    expect(session.history.map((i) => (i.type === 'message' ? [i.role, i.text] : i.type))).toEqual([
      ['user', 'My name is Ada.'],
      ['assistant', 'Hello, Ada.'],
    ]);
    expect(
      log
        .of('transcript_delta')
        .map((d) => d.delta)
        .join(''),
    ).toBe('Hello, Ada.');
    session.sendMessage('No reply needed.', { respond: false });
    await flushMicrotasks();
    expect(model.commands.filter((c) => c.type === 'createResponse')).toHaveLength(1);
    await session.close();
  });

  test('audio events carry the response and item ids, then audio_done', async () => {
    const { model, session, log } = await connected();
    model.respondWith({ output: [{ type: 'message', text: 'Hi there', audio: { ms: 300, chunkMs: 100 } }] });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    const audio = log.of('audio');
    const itemId = log.of('audio_done')[0]?.itemId;
    expect(audio.map((a) => [a.responseId, a.itemId, a.data.byteLength])).toEqual([
      [responseId, itemId, 4800],
      [responseId, itemId, 4800],
      [responseId, itemId, 4800],
    ]);
    expect(log.of('audio_done')).toEqual([{ type: 'audio_done', responseId, itemId }]);
    expect(session.history.at(-1)).toMatchObject({
      itemId,
      role: 'assistant',
      hasAudio: true,
      text: 'Hi there',
    });
    await session.close();
  });

  test('text-only providers: the session asks for text, with a warning if the app asked for audio', async () => {
    const model = new MockRealtimeModel({ capabilities: { audioOutput: false } });
    const session = new RealtimeSession(agent, { model, config: { outputModalities: ['audio'] } });
    const log = new EventRecorder(session);
    await session.connect();
    expect(model.connection.config.outputModalities).toEqual(['text']);
    expect(log.of('warning')[0]?.message).toMatch(/does not declare audioOutput/);
    model.respondWith('Text only.');
    session.sendMessage('hi');
    await flushMicrotasks();
    expect(
      log
        .of('text_delta')
        .map((d) => d.delta)
        .join(''),
    ).toBe('Text only.');
    expect(log.of('audio')).toHaveLength(0);
    await session.close();
  });

  test('push-to-talk: sendAudio with commit commits and requests a reply; the transcript lands in history', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model, config: { turnDetection: null } });
    await session.connect();
    model.respondWith('Heard you.');
    model.connection.transcribeNextCommit('Is anyone there?');
    const pcm = mockPcm16(200);
    session.sendAudio(pcm, { commit: true });
    await flushMicrotasks();
    expect(model.commands.map((c) => c.type)).toEqual([
      'appendInputAudio',
      'commitInputAudio',
      'createResponse',
    ]);
    expect(model.commands[0]).toEqual({ type: 'appendInputAudio', audio: pcm });
    expect(
      session.history.map((i) => (i.type === 'message' ? [i.role, i.text, i.hasAudio] : i.type)),
    ).toEqual([
      ['user', 'Is anyone there?', true],
      ['assistant', 'Heard you.', true],
    ]);
    await session.close();
  });

  test('with turn detection on, commitAudio leaves the reply to the provider', async () => {
    const { model, session } = await connected();
    session.sendAudio(mockPcm16(200));
    session.commitAudio();
    await flushMicrotasks();
    expect(model.commands.map((c) => c.type)).toEqual(['appendInputAudio', 'commitInputAudio']);
    await session.close();
  });

  test('user speech detected by the provider: transcript in history, provider-started reply', async () => {
    const { model, session, log } = await connected();
    model.respondWith('It is noon.');
    model.connection.userStartsSpeaking();
    model.connection.userStopsSpeaking({ transcript: 'What time is it?' });
    await flushMicrotasks();
    expect(session.history.map((i) => (i.type === 'message' ? [i.role, i.text, i.status] : i.type))).toEqual([
      ['user', 'What time is it?', 'completed'],
      ['assistant', 'It is noon.', 'completed'],
    ]);
    expect(log.of('response_started')[0]?.clientRequestId).toBeUndefined();
    expect(model.commands.filter((c) => c.type === 'createResponse')).toHaveLength(0);
    await session.close();
  });
});

describe('interrupt()', () => {
  test('cancels the active response by id, emits audio_interrupted once, truncates at the heard position', async () => {
    const clock = new ManualClock();
    const { model, session, log } = await connected(new MockRealtimeModel(), { clock });
    model.respondWith({
      output: [{ type: 'message', text: 'A long story', audio: { ms: 500 }, pauseAfterChunks: 2 }],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(150);
    session.interrupt();
    session.interrupt();
    await flushMicrotasks();
    const itemId = log.of('audio')[0]?.itemId;
    expect(model.commands.filter((c) => c.type === 'cancelResponse')).toEqual([
      { type: 'cancelResponse', responseId },
    ]);
    expect(log.of('audio_interrupted')).toEqual([
      { type: 'audio_interrupted', responseId, itemId, heardMs: 150 },
    ]);
    expect(log.of('response_done').at(-1)).toMatchObject({ responseId, status: 'cancelled' });
    expect(model.commands.filter((c) => c.type === 'truncateItem')).toEqual([
      { type: 'truncateItem', itemId, heardMs: 150 },
    ]);
    expect(session.history.at(-1)).toMatchObject({
      itemId,
      role: 'assistant',
      interrupted: true,
      status: 'incomplete',
    });
    expect(log.of('error')).toHaveLength(0);
    await session.close();
  });

  test('after the response finished generating: no cancel is sent, playback stops and the message is cut', async () => {
    const clock = new ManualClock();
    const { model, session, log } = await connected(new MockRealtimeModel(), { clock });
    model.respondWith({ output: [{ type: 'message', text: 'Done talking.', audio: { ms: 600 } }] });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(250);
    session.interrupt();
    await flushMicrotasks();
    expect(model.commands.some((c) => c.type === 'cancelResponse')).toBe(false);
    expect(log.of('audio_interrupted')).toEqual([expect.objectContaining({ responseId })]);
    expect(model.commands.filter((c) => c.type === 'truncateItem')).toEqual([
      expect.objectContaining({ heardMs: 250 }),
    ]);
    expect(log.of('error')).toHaveLength(0);
    await session.close();
  });

  test('nothing is playing any more: interrupt() does nothing', async () => {
    const clock = new ManualClock();
    const { model, session, log } = await connected(new MockRealtimeModel(), { clock });
    model.respondWith({ output: [{ type: 'message', text: 'Short.', audio: { ms: 300 } }] });
    await session.generateResponse().done;
    await clock.advance(300);
    session.interrupt();
    await flushMicrotasks();
    expect(log.of('audio_interrupted')).toEqual([]);
    expect(model.commands.map((c) => c.type)).toEqual(['createResponse']);
    expect(session.history.at(-1)).toMatchObject({ interrupted: false });
    await session.close();
  });

  test('barge-in: the provider cancels on speech; the session tells the app once and sends no cancel', async () => {
    const clock = new ManualClock();
    const { model, session, log } = await connected(new MockRealtimeModel(), { clock });
    model.respondWith({
      output: [{ type: 'message', text: 'Let me tell you', audio: { ms: 400 }, pauseAfterChunks: 1 }],
    });
    const responseId = await session.generateResponse();
    await flushMicrotasks();
    await clock.advance(40);
    model.connection.userStartsSpeaking();
    await flushMicrotasks();
    expect(log.of('audio_interrupted')).toEqual([expect.objectContaining({ responseId })]);
    expect(model.commands.some((c) => c.type === 'cancelResponse')).toBe(false);
    expect(log.of('response_done').at(-1)).toMatchObject({ status: 'cancelled', reason: 'user_turn' });
    expect(model.commands.filter((c) => c.type === 'truncateItem')).toEqual([
      expect.objectContaining({ heardMs: 40 }),
    ]);
    await session.close();
  });
});

describe('provider errors', () => {
  test('become error events with the provider code; the session stays usable', async () => {
    const { model, session, log } = await connected();
    model.connection.emitError({ code: 'invalid_value', message: 'Bad value.' });
    await flushMicrotasks();
    expect(log.of('error')).toEqual([
      { type: 'error', source: 'provider', code: 'invalid_value', message: 'Bad value.' },
    ]);
    expect(session.status).toBe('connected');
    model.respondWith('Still here.');
    session.sendMessage('hello?');
    await flushMicrotasks();
    expect(session.history.at(-1)).toMatchObject({ text: 'Still here.' });
    await session.close();
  });

  test('a throwing listener is reported as an error event and does not stop delivery', async () => {
    const { model, session, log } = await connected();
    session.on('response_started', () => {
      throw new Error('listener bug');
    });
    model.respondWith('ok');
    session.sendMessage('hi');
    await flushMicrotasks();
    expect(log.of('error')[0]).toMatchObject({
      source: 'listener',
      code: 'listener_failed',
      message: 'listener bug',
    });
    expect(log.of('response_done')).toHaveLength(1);
    await session.close();
  });

  test('usage reported by the provider is summed', async () => {
    const { model, session } = await connected();
    model.respondWith({
      output: [{ type: 'message', text: 'a' }],
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    model.respondWith({
      output: [{ type: 'message', text: 'b' }],
      usage: { inputTokens: 20, outputTokens: 7 },
    });
    await session.generateResponse().done;
    await session.generateResponse().done;
    expect(session.usage).toEqual({ requests: 2, inputTokens: 30, outputTokens: 12, totalTokens: 42 });
    await session.close();
  });
});

describe('a provider without responseRequests (the model takes its turns by itself)', () => {
  const model = () =>
    new MockRealtimeModel({ capabilities: { responseRequests: false, turnDetection: false } });

  test('sendMessage, generateResponse and commitAudio({ respond: true }) throw CapabilityNotSupportedError; nothing is sent', async () => {
    const { model: mock, session, log } = await connected(model());
    const before = mock.commands.length;
    for (const call of [
      () => session.sendMessage('Hello?'),
      () => session.generateResponse(),
      () => session.commitAudio({ respond: true }),
    ]) {
      expect(call).toThrow(CapabilityNotSupportedError);
      expect(call).toThrow(/responseRequests/);
    }
    await flushMicrotasks();
    expect(mock.commands.slice(before)).toEqual([]);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('commitAudio() commits without asking for a reply (no turn detection, and yet nothing to request)', async () => {
    const { model: mock, session } = await connected(model());
    session.sendAudio(mockPcm16(100));
    session.commitAudio();
    await flushMicrotasks();
    expect(mock.commands.map((c) => c.type)).toContain('commitInputAudio');
    expect(mock.commands.filter((c) => c.type === 'createResponse')).toEqual([]);
    await session.close();
  });

  test('the closed and not-connected errors still come first', async () => {
    const session = new RealtimeSession(agent, { model: model() });
    expect(() => session.sendMessage('Hello?')).toThrow(SessionNotConnectedError);
    await session.connect();
    await session.close();
    expect(() => session.generateResponse()).toThrow(SessionClosedError);
  });
});
