import { EventRecorder } from '@parley/conformance';
import { Agent, type OutputGuardrail, RealtimeSession } from '@parley/core';
import { flushMicrotasks, ManualClock, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';

function watching(word: string, seen: string[] = []): OutputGuardrail {
  return {
    name: `no_${word}`,
    execute: ({ agentOutput }) => {
      seen.push(String(agentOutput));
      return { tripwireTriggered: String(agentOutput).includes(word), outputInfo: { word } };
    },
  };
}

const agent = new Agent({ name: 'Teller', instructions: 'Tell stories.' });

describe('realtime output guardrails', () => {
  test('run every guardrailDebounceChars characters of transcript and once on the final text', async () => {
    const seen: string[] = [];
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, {
      model,
      outputGuardrails: [watching('dragon', seen)],
      guardrailDebounceChars: 10,
    });
    model.respondWith('Once upon a time there was a quiet village.', 'Hello there friend');
    await session.connect();
    session.sendMessage('story');
    await flushMicrotasks();
    // Word deltas: a run each time the text reaches the next multiple of 10 characters; the last one
    // already judged the whole text, so no extra final run.
    expect(seen).toEqual([
      'Once upon ',
      'Once upon a time there ',
      'Once upon a time there was a quiet ',
      'Once upon a time there was a quiet village.',
    ]);
    seen.length = 0;
    session.sendMessage('again');
    await flushMicrotasks();
    // 12 characters cross 10, and the final 18-character text gets its own run.
    expect(seen).toEqual(['Hello there ', 'Hello there friend']);
    await session.close();
  });

  test('a tripwire stops that response only (by id), tells the app once, and corrects the model', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, {
      model,
      outputGuardrails: [watching('secret')],
      guardrailDebounceChars: 5,
      clock: new ManualClock(),
    });
    const log = new EventRecorder(session);
    model.respondWith(
      {
        output: [
          {
            type: 'message',
            text: 'The secret password is swordfish and more',
            audio: { ms: 900 },
            pauseAfterChunks: 8,
          },
        ],
      },
      'Sorry, I cannot share that.',
    );
    await session.connect();
    session.sendMessage('tell me the password');
    await flushMicrotasks();
    const tripped = log.of('guardrail_tripped');
    expect(tripped).toHaveLength(1);
    const responseId = log.of('response_started')[0]!.responseId;
    expect(tripped[0]).toMatchObject({
      responseId,
      guardrailName: 'no_secret',
      outputInfo: { word: 'secret' },
      agent,
    });
    expect(tripped[0]?.text).toContain('secret');
    expect(model.commands.filter((c) => c.type === 'cancelResponse')).toEqual([
      { type: 'cancelResponse', responseId },
    ]);
    expect(log.of('audio_interrupted')).toEqual([expect.objectContaining({ responseId })]);
    const correction = model.commands.find(
      (c) => c.type === 'createItem' && c.item.type === 'message' && c.item.role === 'system',
    );
    expect(JSON.stringify(correction)).toContain('stopped by the \\"no_secret\\" output guardrail');
    expect(log.of('response_done')[0]).toMatchObject({ responseId, status: 'cancelled' });
    // The corrective reply waited for the cancelled response to end, and was not tripped.
    expect(log.of('response_started')).toHaveLength(2);
    expect(session.history.at(-1)).toMatchObject({ role: 'assistant', text: 'Sorry, I cannot share that.' });
    // No time passed on the clock: the listener heard none of it, so the model forgets all of it.
    const stopped = log.of('audio')[0]!.itemId;
    expect(session.history.some((i) => i.itemId === stopped)).toBe(false);
    expect(model.commands.filter((c) => c.type === 'truncateItem' || c.type === 'deleteItem')).toEqual([
      { type: 'truncateItem', itemId: stopped, heardMs: 0 },
      { type: 'deleteItem', itemId: stopped },
    ]);
    expect(model.connection.conversation.some((i) => i.itemId === stopped)).toBe(false);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('a response finished before its guardrail tripped: no cancel, playback stops, no feedback and no extra response', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, { model, outputGuardrails: [watching('secret')] });
    const log = new EventRecorder(session);
    model.respondWith('A short secret.', 'Let me rephrase.');
    await session.connect();
    session.sendMessage('hi');
    await flushMicrotasks();
    expect(log.of('guardrail_tripped')).toHaveLength(1);
    expect(model.commands.some((c) => c.type === 'cancelResponse')).toBe(false);
    expect(log.of('audio_interrupted')).toHaveLength(1);
    expect(log.of('response_started')).toHaveLength(1);
    expect(model.commands.filter((c) => c.type === 'createItem')).toHaveLength(1);
    expect(log.of('error')).toEqual([]);
    await session.close();
  });

  test('several guardrails tripping in one check: one event names them all', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, {
      model,
      outputGuardrails: [watching('secret'), watching('short')],
    });
    const log = new EventRecorder(session);
    model.respondWith('A short secret.', 'Let me rephrase.');
    await session.connect();
    session.sendMessage('hi');
    await flushMicrotasks();
    const trips = log.of('guardrail_tripped');
    expect(trips).toHaveLength(1);
    expect(trips[0]!.guardrailName).toBe('no_secret');
    expect(trips[0]!.guardrails).toEqual([
      { name: 'no_secret', outputInfo: { word: 'secret' } },
      { name: 'no_short', outputInfo: { word: 'short' } },
    ]);
    await session.close();
  });

  test('a guardrail attached to both the session and the agent runs once per check', async () => {
    const seen: string[] = [];
    const shared = watching('never', seen);
    const guarded = new Agent({ name: 'Guarded', outputGuardrails: [shared] });
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(guarded, { model, outputGuardrails: [shared] });
    model.respondWith('Hello there.');
    await session.connect();
    session.sendMessage('hi');
    await flushMicrotasks();
    expect(seen).toEqual(['Hello there.']);
    await session.close();
  });

  test('the agent’s own output guardrails apply too, and a response trips at most once', async () => {
    const seen: string[] = [];
    const guarded = new Agent({ name: 'Guarded', outputGuardrails: [watching('x', seen)] });
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(guarded, { model, guardrailDebounceChars: 3 });
    const log = new EventRecorder(session);
    model.respondWith('xx xx xx xx xx xx', 'clean');
    await session.connect();
    session.sendMessage('go');
    await flushMicrotasks();
    expect(seen.length).toBeGreaterThan(0);
    expect(log.of('guardrail_tripped')).toHaveLength(1);
    await session.close();
  });

  test('a guardrail that throws is an error event, not a trip', async () => {
    const model = new MockRealtimeModel();
    const session = new RealtimeSession(agent, {
      model,
      outputGuardrails: [
        {
          name: 'broken',
          execute: () => {
            throw new Error('classifier offline');
          },
        },
      ],
    });
    const log = new EventRecorder(session);
    model.respondWith('Hello.');
    await session.connect();
    session.sendMessage('hi');
    await flushMicrotasks();
    expect(log.of('guardrail_tripped')).toEqual([]);
    expect(log.of('error')[0]).toMatchObject({
      source: 'guardrail',
      code: 'guardrail_failed',
      message: 'classifier offline',
    });
    expect(model.commands.some((c) => c.type === 'cancelResponse')).toBe(false);
    await session.close();
  });
});
