import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OpenAIRealtimeWebSocket, RealtimeAgent, RealtimeSession, tool } from '@openai/agents-realtime';
import { createHold, type SimulatorConnection } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { simulator } from '../realtime/helpers.js';

/**
 * `@openai/agents-realtime` validates every server event with its own zod schema and silently degrades an event
 * that fails it to a "generic" one. The schema is internal to the package, so it is loaded from the package's own
 * files to assert that every event the simulator sends passes it.
 */
type SafeParse = (value: unknown) => { success: boolean; error?: { message: string } };
async function agentsServerEventSchema(): Promise<{ safeParse: SafeParse }> {
  const entry = createRequire(import.meta.url).resolve('@openai/agents-realtime');
  const events = pathToFileURL(join(dirname(entry), 'openaiRealtimeEvents.mjs')).href;
  return ((await import(events)) as { realtimeServerEventSchema: { safeParse: SafeParse } })
    .realtimeServerEventSchema;
}

type Raw = Record<string, unknown> & { type: string };

const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  strict: true,
  execute: async (input) => `sunny in ${(input as { city: string }).city}`,
});

describe('@openai/agents-realtime against the simulator', () => {
  test('a realistic conversation: every server event parses with its schema, and no error but the refused second response.create', async () => {
    const schema = await agentsServerEventSchema();
    const sim = await simulator();
    const sockets: WebSocket[] = [];
    const transport = new OpenAIRealtimeWebSocket({
      url: `${sim.url}?model=gpt-realtime`,
      createWebSocket: async ({ url, apiKey }) => {
        const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${apiKey}` } });
        sockets.push(ws);
        return ws;
      },
    });
    const agent = new RealtimeAgent({
      name: 'Forecaster',
      instructions: 'Tell the weather.',
      tools: [weather],
    });
    const session = new RealtimeSession(agent, { transport, model: 'gpt-realtime' });
    const raw: Raw[] = [];
    transport.on('*', (event: Raw) => raw.push(event));
    const errors: unknown[] = [];
    session.on('error', (error) => errors.push(error.error));

    const nth = (type: string, n: number, match: (e: Raw) => boolean = () => true) =>
      new Promise<Raw>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${n}× ${type}; got ${raw.map((e) => e.type).join(', ')}`)),
          4000,
        );
        const check = () => {
          const found = raw.filter((e) => e.type === type && match(e));
          if (found.length < n) return false;
          clearTimeout(timer);
          resolve(found[n - 1] as Raw);
          return true;
        };
        if (check()) return;
        transport.on('*', () => {
          check();
        });
      });
    const dones = () => raw.filter((e) => e.type === 'response.done').length;

    try {
      // Session update: the client's defaults (semantic_vad, transcription) come back as the full session.
      await session.connect({ apiKey: 'sk-agents-test' });
      const server = (await sim.waitForConnection(0)) as SimulatorConnection;
      // It sends `tracing` first, then its configuration, with a partial `turn_detection: { type: 'semantic_vad' }`.
      const updated = await nth('session.updated', 2);
      expect(
        (updated.session as { audio: { input: Record<string, unknown> } }).audio.input.turn_detection,
      ).toEqual({
        type: 'semantic_vad',
        eagerness: 'auto',
        create_response: true,
        interrupt_response: true,
      });

      // A text turn with audio out.
      sim.script('Hello from the simulator.');
      session.sendMessage('Hi');
      const first = await nth('response.done', 1);
      expect(first.response).toMatchObject({
        status: 'completed',
        output: [{ type: 'message', role: 'assistant' }],
      });
      expect(raw.some((e) => e.type === 'response.output_audio.delta')).toBe(true);

      // A function-call round trip: the client runs the tool and asks for the follow-up itself.
      sim.script(
        { type: 'function_call', name: 'weather', arguments: { city: 'Paris' }, callId: 'call_paris' },
        (turn) => `It is ${turn.toolOutputs[0]?.output ?? 'unknown'}.`,
      );
      session.sendMessage('Weather in Paris?');
      const followUp = await nth('response.done', 3);
      expect(followUp.response).toMatchObject({
        status: 'completed',
        output: [{ type: 'message', content: [{ transcript: 'It is sunny in Paris.' }] }],
      });
      expect(server.conversation.items.map((i) => i.type)).toEqual([
        'message',
        'message',
        'message',
        'function_call',
        'function_call_output',
        'message',
      ]);

      // A barge-in: server VAD cancels the response; with interrupt_response on, the client only truncates.
      const midAnswer = createHold('mid-answer');
      sim.script({ type: 'message', text: ['Let me tell you a long story ', midAnswer, 'about sockets.'] });
      session.sendMessage('Tell me a story');
      await midAnswer.reached;
      await nth('response.output_audio.delta', 1, (e) => e.response_id === server.activeResponses[0]?.id);
      const clientEventsBefore = server.clientEvents.length;
      server.startSpeech();
      const truncated = await nth('conversation.item.truncated', 1);
      expect(truncated.audio_end_ms).toEqual(expect.any(Number));
      const afterBargeIn = server.clientEvents.slice(clientEventsBefore) as Raw[];
      expect(afterBargeIn.map((e) => e.type)).toEqual(['conversation.item.truncate']);
      expect(raw.filter((e) => e.type === 'response.done').at(-1)?.response).toMatchObject({
        status: 'cancelled',
        status_details: { reason: 'turn_detected' },
      });
      midAnswer.release();

      // A cancel from the client while the response streams.
      const held = createHold('held');
      sim.script({ type: 'message', text: ['Counting one two ', held, 'three.'] });
      const before = dones();
      session.sendMessage('Count');
      await held.reached;
      await nth('response.output_audio.delta', 1, (e) => e.response_id === server.activeResponses[0]?.id);
      session.interrupt();
      const cancelled = await nth('response.done', before + 1);
      expect(cancelled.response).toMatchObject({
        status: 'cancelled',
        status_details: { reason: 'client_cancelled' },
      });
      held.release();

      // An out-of-band response: not in the conversation, metadata echoed.
      sim.script('A summary.');
      const itemsBefore = server.conversation.items.length;
      transport.requestResponse({
        conversation: 'none',
        output_modalities: ['text'],
        metadata: { purpose: 'summary' },
      } as never);
      const oob = await nth(
        'response.done',
        1,
        (e) => (e.response as { conversation_id: unknown }).conversation_id === null,
      );
      expect(oob.response).toMatchObject({ status: 'completed', metadata: { purpose: 'summary' } });
      expect(server.conversation.items).toHaveLength(itemsBefore);

      // A second response.create while one is active is refused, as by the service, naming the refused request.
      const busy = createHold('busy');
      sim.script({ type: 'message', text: ['Busy ', busy, 'now.'] });
      const socket = sockets[0] as WebSocket;
      socket.send(JSON.stringify({ type: 'response.create', event_id: 'first_create' }));
      socket.send(JSON.stringify({ type: 'response.create', event_id: 'second_create' }));
      const refused = await nth('error', 1);
      expect(refused.error).toMatchObject({
        code: 'conversation_already_has_active_response',
        event_id: 'second_create',
      });
      busy.release();
      const lastCreated = raw.filter((e) => e.type === 'response.created').at(-1);
      const lastId = (lastCreated?.response as { id: string } | undefined)?.id;
      await nth('response.done', 1, (e) => (e.response as { id: string }).id === lastId);

      const failures = raw
        .map((event) => ({ type: event.type, result: schema.safeParse(event) }))
        .filter((r) => !r.result.success)
        .map((r) => `${r.type}: ${r.result.error?.message}`);
      expect(failures).toEqual([]);
      expect(errors).toEqual([
        expect.objectContaining({
          type: 'error',
          error: expect.objectContaining({ event_id: 'second_create' }),
        }),
      ]);
      expect(JSON.stringify(errors)).toContain('conversation_already_has_active_response');
    } finally {
      session.close();
    }
  });
});

describe('@openai/agents-realtime: the model it names in every session.update', () => {
  test('a session opened on a URL model gets no error for the model its updates name', async () => {
    const sim = await simulator();
    // Without a `model` option the client names its own default model in each session.update.
    const transport = new OpenAIRealtimeWebSocket({
      url: `${sim.url}?model=gpt-realtime`,
      createWebSocket: async ({ url, apiKey }) =>
        new WebSocket(url, { headers: { Authorization: `Bearer ${apiKey}` } }),
    });
    const session = new RealtimeSession(new RealtimeAgent({ name: 'Plain', instructions: 'Be plain.' }), {
      transport,
    });
    const errors: unknown[] = [];
    session.on('error', (error) => errors.push(error.error));
    try {
      await session.connect({ apiKey: 'sk-agents-test' });
      const server = (await sim.waitForConnection(0)) as SimulatorConnection;
      await server.waitForClientEvent(
        (e) => e.type === 'session.update' && JSON.stringify(e).includes('Be plain.'),
      );
      const update = server.clientEvents.find((e) => JSON.stringify(e).includes('Be plain.')) as {
        session: { model?: string };
      };
      expect(update.session.model).toEqual(expect.any(String));
      await server.waitForServerEvent(
        (e) => e.type === 'session.updated' && JSON.stringify(e).includes('Be plain.'),
      );
      expect(server.session).toMatchObject({ model: 'gpt-realtime', instructions: 'Be plain.' });
      expect(errors).toEqual([]);
      expect(server.serverEvents.filter((e) => e.type === 'error')).toEqual([]);
    } finally {
      session.close();
    }
  });
});
