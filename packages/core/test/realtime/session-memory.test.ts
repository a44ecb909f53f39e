import { EventRecorder } from '@parley/conformance';
import {
  type AddItemsOptions,
  Agent,
  type ConversationItem,
  MemorySession,
  RealtimeSession,
  type RealtimeSessionOptions,
  run,
  tool,
  UserError,
} from '@parley/core';
import { flushMicrotasks, ManualClock, MockModel, MockRealtimeModel } from '@parley/mock';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

const weather = tool({
  name: 'weather',
  description: 'weather',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}.`,
});

function setup(
  memory: MemorySession | RealtimeSessionOptions['memory'],
  options: Partial<RealtimeSessionOptions> = {},
) {
  const clock = new ManualClock();
  const model = new MockRealtimeModel({ clock });
  const session = new RealtimeSession(new Agent({ name: 'Voice', tools: [weather] }), {
    model,
    clock,
    reconnect: { jitter: 0 },
    memory,
    ...options,
  });
  const log = new EventRecorder(session);
  return { clock, model, session, log };
}

/** Items as short strings: `role: text`, `call name(args)`, `output text`. */
function lines(items: readonly ConversationItem[]): string[] {
  return items.map((item) =>
    item.type === 'message'
      ? `${item.role}: ${item.content}`
      : item.type === 'function_call'
        ? `call ${item.name}(${item.arguments})`
        : item.type === 'function_call_output'
          ? `output ${item.output}`
          : item.type,
  );
}

describe('a RealtimeSession with memory writes every turn as the listener heard it', () => {
  test('typed and spoken user turns, a tool call with its output, answers heard in full: each written as its turn ends', async () => {
    const memory = new MemorySession();
    const { clock, model, session } = setup(memory, {
      config: { inputTranscription: { model: 'whisper-1' } },
    });
    await session.connect();
    model.respondWith(
      {
        output: [{ type: 'function_call', name: 'weather', arguments: { city: 'Paris' }, callId: 'call_1' }],
      },
      { output: [{ type: 'message', text: 'It is sunny in Paris.', audio: { ms: 1000 } }] },
    );
    session.sendMessage('Weather in Paris?');
    await flushMicrotasks();
    // The answer is still playing: it is not written before the listener heard it.
    expect(lines(await memory.getItems())).toEqual([
      'user: Weather in Paris?',
      'call weather({"city":"Paris"})',
      'output Sunny in Paris.',
    ]);
    await clock.advance(1_000);
    await flushMicrotasks();
    expect(lines(await memory.getItems())).toEqual([
      'user: Weather in Paris?',
      'call weather({"city":"Paris"})',
      'output Sunny in Paris.',
      'assistant: It is sunny in Paris.',
    ]);
    model.respondWith('You are welcome.');
    model.connection.userStartsSpeaking();
    model.connection.userStopsSpeaking({ transcript: 'Thanks!' });
    await flushMicrotasks();
    await clock.advance(5_000);
    await flushMicrotasks();
    expect(lines(await memory.getItems()).slice(4)).toEqual(['user: Thanks!', 'assistant: You are welcome.']);
    await session.close();
    expect(await memory.getItems()).toHaveLength(6);
  });

  test('an interrupted answer is written as heard, never as generated; an ephemeral response never', async () => {
    const memory = new MemorySession();
    const { clock, model, session } = setup(memory);
    await session.connect();
    model.respondWith({
      output: [
        { type: 'message', text: 'One two three four five six seven eight', audio: { ms: 1000 } },
        { type: 'pause' },
      ],
    });
    session.sendMessage('Count for me.');
    await flushMicrotasks();
    await clock.advance(400);
    session.interrupt();
    await flushMicrotasks();
    model.respondWith('Secret code 4711.');
    await session.generateResponse({ addToHistory: false, instructions: 'Read the code.' }).done;
    await clock.advance(5_000);
    await flushMicrotasks();
    expect(lines(await memory.getItems())).toEqual(['user: Count for me.', 'assistant: One two three']);
    await session.close();
    expect(lines(await memory.getItems())).toEqual(['user: Count for me.', 'assistant: One two three']);
  });

  test('an answer the listener never heard (cut before its audio) is not written', async () => {
    const memory = new MemorySession();
    const { clock, model, session } = setup(memory);
    await session.connect();
    model.respondWith({
      output: [{ type: 'message', text: 'Never heard.', audio: { ms: 1000 } }, { type: 'pause' }],
    });
    session.sendMessage('Hello?');
    await flushMicrotasks();
    session.interrupt();
    await flushMicrotasks();
    await clock.advance(2_000);
    await session.close();
    expect(lines(await memory.getItems())).toEqual(['user: Hello?']);
  });
});

describe('a voice session starts from a stored conversation', () => {
  test('on connect the stored items are replayed into the provider conversation and not written again', async () => {
    const memory = new MemorySession([
      { type: 'message', role: 'user', content: 'My name is Ada.' },
      { type: 'message', role: 'assistant', content: 'Nice to meet you, Ada.' },
      { type: 'function_call', callId: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', callId: 'c1', output: 'Sunny in Oslo.' },
      // A call without its output (a text run paused for approval) has nothing to replay.
      { type: 'function_call', callId: 'c2', name: 'weather', arguments: '{"city":"Rome"}' },
    ]);
    const { clock, model, session, log } = setup(memory);
    await session.connect();
    const created = model.connection.commands.flatMap((command) =>
      command.type === 'createItem' ? [command.item] : [],
    );
    expect(
      created.map((item) =>
        item.type === 'message'
          ? `${item.role}: ${item.content[0]?.type === 'text' ? item.content[0].text : ''}`
          : item.type,
      ),
    ).toEqual([
      'user: My name is Ada.',
      'assistant: Nice to meet you, Ada.',
      'function_call',
      'function_call_output',
    ]);
    expect(session.history.map((item) => (item.type === 'message' ? item.text : item.output))).toEqual([
      'My name is Ada.',
      'Nice to meet you, Ada.',
      'Sunny in Oslo.',
    ]);
    // The provider's echoes of the replay are not new turns.
    expect(log.of('history_added')).toHaveLength(3);
    model.respondWith('You are Ada.');
    session.sendMessage('Who am I?');
    await flushMicrotasks();
    await clock.advance(5_000);
    await session.close();
    expect(lines(await memory.getItems()).slice(4)).toEqual([
      'call weather({"city":"Rome"})',
      'user: Who am I?',
      'assistant: You are Ada.',
    ]);
  });

  test('a text run and a voice call share one session', async () => {
    const memory = new MemorySession();
    const text = new MockModel([MockModel.text('Hi Ada!'), MockModel.text('You said thanks by voice.')]);
    const agent = new Agent({ name: 'Chat', model: text });
    await run(agent, 'I am Ada', { session: memory });
    const { clock, model, session } = setup(memory);
    await session.connect();
    model.respondWith('Hello again, Ada.');
    session.sendMessage('Remember me?');
    await flushMicrotasks();
    await clock.advance(5_000);
    await session.close();
    await run(agent, 'What did I say on the call?', { session: memory });
    expect(lines(text.requests[1]?.input ?? [])).toEqual([
      'user: I am Ada',
      'assistant: Hi Ada!',
      'user: Remember me?',
      'assistant: Hello again, Ada.',
      'user: What did I say on the call?',
    ]);
  });
});

describe('memory writes that fail', () => {
  test('a failed write is reported as a warning and retried with the same operation id', async () => {
    const inner = new MemorySession();
    const ids: (string | undefined)[] = [];
    let failures = 1;
    const flaky = {
      getItems: (limit?: number) => inner.getItems(limit),
      popItem: () => inner.popItem(),
      clearSession: () => inner.clearSession(),
      async addItems(items: ConversationItem[], options?: AddItemsOptions) {
        ids.push(options?.operationId);
        await inner.addItems(items, options);
        if (failures-- > 0) throw new Error('reply lost');
      },
    };
    const { clock, model, session, log } = setup(flaky);
    await session.connect();
    model.respondWith('One.', 'Two.');
    session.sendMessage('first');
    await flushMicrotasks();
    await clock.advance(5_000);
    await flushMicrotasks();
    expect(log.of('warning').map((w) => w.code)).toContain('memory_write_failed');
    session.sendMessage('second');
    await flushMicrotasks();
    await clock.advance(5_000);
    await session.close();
    expect(ids[1]).toBe(ids[0]);
    expect(lines(await inner.getItems())).toEqual([
      'user: first',
      'assistant: One.',
      'user: second',
      'assistant: Two.',
    ]);
  });

  test('memory that is not a Session is refused before connecting', () => {
    const model = new MockRealtimeModel();
    const create = () =>
      new RealtimeSession(new Agent({ name: 'A' }), { model, memory: { getItems: () => [] } as never });
    expect(create).toThrow(UserError);
    expect(create).toThrow(/memory must be a Session/);
    expect(model.connections).toHaveLength(0);
  });
});
