import { connect } from 'node:net';
import { WIRE_CLIENT_EVENT_TYPES, WIRE_SERVER_EVENT_TYPES } from '@parley/openai/wire';
import { createHold, type SimulatorConnection } from '@parley/simulator';
import OpenAI from 'openai';
import type { OpenAIRealtimeError } from 'openai/realtime/internal-base';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { describe, expect, test } from 'vitest';
import { simulator } from '../realtime/helpers.js';

/** Every server event type of the `openai` SDK's `RealtimeServerEvent` union (the compiler checks the list). */
const SDK_SERVER_EVENT_TYPES = {
  'conversation.created': true,
  'conversation.item.created': true,
  'conversation.item.deleted': true,
  'conversation.item.input_audio_transcription.completed': true,
  'conversation.item.input_audio_transcription.delta': true,
  'conversation.item.input_audio_transcription.failed': true,
  'conversation.item.retrieved': true,
  'conversation.item.truncated': true,
  error: true,
  'input_audio_buffer.cleared': true,
  'input_audio_buffer.committed': true,
  'input_audio_buffer.dtmf_event_received': true,
  'input_audio_buffer.speech_started': true,
  'input_audio_buffer.speech_stopped': true,
  'rate_limits.updated': true,
  'response.output_audio.delta': true,
  'response.output_audio.done': true,
  'response.output_audio_transcript.delta': true,
  'response.output_audio_transcript.done': true,
  'response.content_part.added': true,
  'response.content_part.done': true,
  'response.created': true,
  'response.done': true,
  'response.function_call_arguments.delta': true,
  'response.function_call_arguments.done': true,
  'response.output_item.added': true,
  'response.output_item.done': true,
  'response.output_text.delta': true,
  'response.output_text.done': true,
  'session.created': true,
  'session.updated': true,
  'output_audio_buffer.started': true,
  'output_audio_buffer.stopped': true,
  'output_audio_buffer.cleared': true,
  'conversation.item.added': true,
  'conversation.item.done': true,
  'input_audio_buffer.timeout_triggered': true,
  'conversation.item.input_audio_transcription.segment': true,
  'mcp_list_tools.in_progress': true,
  'mcp_list_tools.completed': true,
  'mcp_list_tools.failed': true,
  'response.mcp_call_arguments.delta': true,
  'response.mcp_call_arguments.done': true,
  'response.mcp_call.in_progress': true,
  'response.mcp_call.completed': true,
  'response.mcp_call.failed': true,
} satisfies Record<RealtimeServerEvent['type'], true>;

/**
 * The official Node client (`OpenAIRealtimeWS`) builds only `wss:` URLs from the client's `baseURL`; the `ws`
 * options it passes on reach the loopback simulator: `createConnection` opens plain TCP to it.
 */
function openaiClientFor(
  port: number,
  props: { model: string } | { intent: 'transcription' } | { callID: string },
) {
  const client = new OpenAI({ apiKey: 'sk-openai-node-test', baseURL: 'https://simulator.invalid/v1' });
  return new OpenAIRealtimeWS(
    { ...props, options: { createConnection: () => connect(port, '127.0.0.1') } } as never,
    client,
  );
}

type Raw = RealtimeServerEvent & Record<string, unknown>;

/** Records a client's events; `nth` resolves with the n-th matching one. */
function record(rt: OpenAIRealtimeWS) {
  const events: Raw[] = [];
  const errors: unknown[] = [];
  const listeners = new Set<() => void>();
  rt.on('event', (event) => {
    events.push(event as Raw);
    for (const listener of [...listeners]) listener();
  });
  rt.on('error', (error) => errors.push(error));
  const nth = (type: string, n = 1, match: (e: Raw) => boolean = () => true) =>
    new Promise<Raw>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${n}× ${type}; got ${events.map((e) => e.type).join(', ')}`)),
        4000,
      );
      const check = () => {
        const found = events.filter((e) => e.type === type && match(e));
        if (found.length < n) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve(found[n - 1] as Raw);
      };
      listeners.add(check);
      check();
    });
  return { events, errors, nth };
}

const responseOf = (e: Raw) => (e as unknown as { response: Record<string, unknown> }).response;

describe('the wire catalogue shared by the adapter and the simulator', () => {
  test("every event type it names is one of the official SDK's", () => {
    const server: Record<string, boolean> = SDK_SERVER_EVENT_TYPES;
    expect(WIRE_SERVER_EVENT_TYPES.filter((type) => !server[type])).toEqual([]);
    // Compile-time: each catalogue client event type is a type of the SDK's RealtimeClientEvent union.
    const client: readonly RealtimeClientEvent['type'][] = WIRE_CLIENT_EVENT_TYPES;
    expect(client).toHaveLength(11);
  });
});

describe('the official `openai` Node client against the simulator', () => {
  test('a realistic conversation: every event is an SDK server event type, and no error but the refused second response.create', async () => {
    const sim = await simulator();
    const rt = openaiClientFor(sim.port, { model: 'gpt-realtime' });
    const { events, errors, nth } = record(rt);
    try {
      await new Promise<void>((resolve, reject) => {
        rt.socket.once('open', () => resolve());
        rt.socket.once('error', reject);
      });
      const server = (await sim.waitForConnection(0)) as SimulatorConnection;
      expect(server.headers.authorization).toBe('Bearer sk-openai-node-test');
      expect(server.model).toBe('gpt-realtime');
      await nth('session.created');

      // Session update.
      rt.send({
        type: 'session.update',
        session: {
          type: 'realtime',
          instructions: 'Tell the weather.',
          tools: [
            {
              type: 'function',
              name: 'weather',
              description: 'The weather in a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } } },
            },
          ],
          audio: { input: { turn_detection: { type: 'server_vad', silence_duration_ms: 500 } } },
        },
      });
      const updated = await nth('session.updated');
      expect(updated).toMatchObject({
        session: {
          instructions: 'Tell the weather.',
          audio: { input: { turn_detection: { interrupt_response: true, create_response: true } } },
        },
      });

      // A text turn with audio out.
      sim.script('Hello from the simulator.');
      rt.send({
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
      });
      rt.send({ type: 'response.create' });
      expect(responseOf(await nth('response.done', 1))).toMatchObject({ status: 'completed' });
      expect(events.some((e) => e.type === 'response.output_audio.delta')).toBe(true);

      // A function-call round trip.
      sim.script(
        { type: 'function_call', name: 'weather', arguments: { city: 'Paris' }, callId: 'call_paris' },
        (turn) => `It is ${turn.toolOutputs[0]?.output ?? 'unknown'}.`,
      );
      rt.send({ type: 'response.create' });
      const call = await nth('response.done', 2);
      expect(responseOf(call).output).toEqual([
        expect.objectContaining({ type: 'function_call', call_id: 'call_paris' }),
      ]);
      rt.send({
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: 'call_paris', output: 'sunny in Paris' },
      });
      rt.send({ type: 'response.create' });
      const answer = await nth('response.done', 3);
      expect(responseOf(answer).output).toEqual([
        expect.objectContaining({ content: [{ type: 'output_audio', transcript: 'It is sunny in Paris.' }] }),
      ]);

      // A barge-in (server VAD) and the client's truncate at what it played.
      const mid = createHold('mid');
      sim.script({ type: 'message', text: ['A long answer ', mid, 'that goes on.'], audioMs: 2000 });
      rt.send({ type: 'response.create' });
      await mid.reached;
      const delta = await nth(
        'response.output_audio.delta',
        1,
        (e) => e.response_id === server.activeResponses[0]?.id,
      );
      server.startSpeech();
      const interrupted = await nth('response.done', 4);
      expect(responseOf(interrupted)).toMatchObject({
        status: 'cancelled',
        status_details: { reason: 'turn_detected' },
      });
      rt.send({
        type: 'conversation.item.truncate',
        item_id: String(delta.item_id),
        content_index: 0,
        audio_end_ms: 120,
      });
      expect(await nth('conversation.item.truncated')).toMatchObject({ audio_end_ms: 120 });
      mid.release();

      // A cancel.
      const held = createHold('held');
      sim.script({ type: 'message', text: ['Counting ', held, 'on.'] });
      rt.send({ type: 'response.create' });
      rt.send({ type: 'response.cancel' });
      expect(responseOf(await nth('response.done', 5))).toMatchObject({
        status: 'cancelled',
        status_details: { reason: 'client_cancelled' },
      });
      held.release();

      // An out-of-band response.
      sim.script('A summary.');
      rt.send({
        type: 'response.create',
        response: { conversation: 'none', output_modalities: ['text'], metadata: { purpose: 'summary' } },
      });
      expect(responseOf(await nth('response.done', 6))).toMatchObject({
        conversation_id: null,
        metadata: { purpose: 'summary' },
        status: 'completed',
      });

      // A second response.create while one is active is refused, naming the refused request.
      rt.send({ type: 'response.create', event_id: 'first_create' });
      rt.send({ type: 'response.create', event_id: 'second_create' });
      const refused = await nth('error');
      expect(refused).toMatchObject({
        error: { code: 'conversation_already_has_active_response', event_id: 'second_create' },
      });
      await nth('response.done', 7);

      const known: Record<string, boolean> = SDK_SERVER_EVENT_TYPES;
      expect(events.filter((e) => !known[e.type]).map((e) => e.type)).toEqual([]);
      // The simulator speaks only the wire catalogue it shares with the adapter.
      const catalogue: readonly string[] = WIRE_SERVER_EVENT_TYPES;
      expect(events.filter((e) => !catalogue.includes(e.type)).map((e) => e.type)).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(String((errors[0] as Error).message)).toContain('conversation_already_has_active_response');
      // The client's error names the request it refuses.
      expect((errors[0] as OpenAIRealtimeError).error?.event_id).toBe('second_create');
    } finally {
      rt.close();
    }
  });
});

describe('the official `openai` Node client: the other connection targets', () => {
  test("{ intent: 'transcription' } opens a transcription session; { callID } attaches to a call", async () => {
    const sim = await simulator();
    const transcription = openaiClientFor(sim.port, { intent: 'transcription' });
    const t = record(transcription);
    const callId = sim.createCall({ session: { instructions: 'Phone agent.' } });
    const call = openaiClientFor(sim.port, { callID: callId });
    const c = record(call);
    try {
      expect((await t.nth('session.created')) as unknown).toMatchObject({
        session: { type: 'transcription' },
      });
      expect((await c.nth('session.created')) as unknown).toMatchObject({
        session: { instructions: 'Phone agent.' },
      });
      expect(sim.connections.map((connection) => connection.targetKind).sort()).toEqual([
        'call',
        'transcription',
      ]);
      expect(t.errors).toEqual([]);
      expect(c.errors).toEqual([]);
    } finally {
      transcription.close();
      call.close();
    }
  });
});
