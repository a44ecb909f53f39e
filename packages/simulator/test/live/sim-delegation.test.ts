import { silenceAudio, speechAudio } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { liveSimulator } from './live-rig.js';
import { LiveSdkClient } from './live-sdk-client.js';

async function connect(session: Record<string, unknown> = { model: 'gpt-live-1' }) {
  const sim = await liveSimulator({ msPerChar: 10 });
  const client = LiveSdkClient.primary(sim, session);
  await client.waitFor('session.started');
  return { sim, client };
}

const said = (client: LiveSdkClient) =>
  client
    .ofType('session.output_transcript.delta')
    .map((e) => e.delta)
    .join('');

describe('context appends', () => {
  test('each append is acknowledged on the timeline ~600 ms later with its span; commentary is spoken, thinking and instructions are not', async () => {
    const { client } = await connect();
    await client.stream(silenceAudio(200));
    client.send({
      type: 'session.instructions.append',
      event_id: 'i1',
      content: 'Use metric units.',
      delegation_id: null,
    });
    client.send({
      type: 'session.thinking.append',
      event_id: 't1',
      content: 'The user is in Oslo.',
      delegation_id: null,
    });
    client.send({
      type: 'session.commentary.append',
      event_id: 'c1',
      content: 'Welcome to Oslo weather.',
      delegation_id: null,
    });
    await client.stream(silenceAudio(500));
    expect(client.ofType('session.instructions.appended')).toEqual([]);
    await client.stream(silenceAudio(1000));
    for (const [type, id] of [
      ['session.instructions.appended', 'i1'],
      ['session.thinking.appended', 't1'],
      ['session.commentary.appended', 'c1'],
    ] as const) {
      expect(client.ofType(type)).toEqual([
        { type, event_id: expect.any(String), client_event_id: id, start_ms: 800, end_ms: 800 },
      ]);
    }
    expect(said(client)).toBe('Welcome to Oslo weather.');
    expect(client.ofType('session.output_transcript.delta')[0]?.start_ms).toBe(800);
    expect(client.invalid).toEqual([]);
  });

  test('refused appends: over 500 tokens, no delegation_id key, unknown delegation id', async () => {
    const { client } = await connect();
    client.send({
      type: 'session.commentary.append',
      event_id: 'big',
      content: 'x'.repeat(1900),
      delegation_id: null,
    });
    client.send({
      type: 'session.commentary.append',
      event_id: 'ok',
      content: 'x'.repeat(1750),
      delegation_id: null,
    });
    client.send({ type: 'session.thinking.append', event_id: 'nokey', content: 'hi' });
    client.send({
      type: 'session.thinking.append',
      event_id: 'who',
      content: 'hi',
      delegation_id: 'dlg_nope',
    });
    await client.waitFor('error', 3);
    expect(client.ofType('error').map((e) => [e.client_event_id, e.error.message.slice(0, 48)])).toEqual([
      ['big', 'Context append text must not exceed 500 tokens'],
      ['nokey', "Missing required parameter: 'delegation_id'."],
      ['who', "Unknown delegation 'dlg_nope'."],
    ]);
  });
});

describe('client delegation', () => {
  test('delegation.created after the transcript with id and offset only; an automatic acknowledgement; the commentary answer is spoken', async () => {
    const { sim, client } = await connect();
    sim.script({ type: 'delegate' });
    await client.stream(speechAudio('check staging', { durationMs: 600 }));
    await client.stream(silenceAudio(600));
    const created = await client.waitFor('session.delegation.created');
    const heardAt = client.events.findIndex((e) => e.type === 'session.input_transcript.delta');
    expect(client.events.indexOf(created)).toBeGreaterThan(heardAt);
    expect(created).toEqual({
      type: 'session.delegation.created',
      event_id: expect.any(String),
      offset_ms: 1100,
      delegation: { id: expect.stringMatching(/^dlg_/), type: 'delegation', target: 'client' },
    });
    await client.stream(silenceAudio(1000));
    expect(said(client)).toBe('One moment, let me check.');
    const id = (created as { delegation: { id: string } }).delegation.id;
    client.send({ type: 'session.commentary.append', content: 'Staging is healthy.', delegation_id: id });
    await client.stream(silenceAudio(1500));
    expect(said(client)).toBe('One moment, let me check. Staging is healthy.');
    expect((await sim.waitForSession()).delegations.get(id)?.answers).toEqual([
      { kind: 'commentary', content: 'Staging is healthy.' },
    ]);
  });

  test('an append before the acknowledgement delay cancels every pending acknowledgement', async () => {
    const { sim, client } = await connect({
      model: 'gpt-live-1',
      delegation: { type: 'client', acknowledgement_delay_ms: 400 },
    });
    sim.script({ type: 'delegate' }, { type: 'delegate' });
    await client.stream(speechAudio('first', { durationMs: 400 }));
    await client.stream(silenceAudio(600));
    await client.stream(speechAudio('second', { durationMs: 400 }));
    await client.stream(silenceAudio(600));
    expect(client.ofType('session.delegation.created')).toHaveLength(2);
    client.send({ type: 'session.thinking.append', content: 'Working on both.', delegation_id: null });
    await client.stream(silenceAudio(2000));
    expect(said(client)).toBe('One moment, let me check.');
  });

  test('barge-in: user speech over the model stops its output server-side with no event; a later result is still spoken', async () => {
    const { sim, client } = await connect();
    sim.script(
      [
        { type: 'speak', text: 'The forecast for tomorrow is sunny with a high of twenty degrees' },
        { type: 'delegate' },
      ],
      'Sunday is rainy.',
    );
    await client.stream(speechAudio('weather', { durationMs: 300 }));
    await client.stream(silenceAudio(700));
    const before = said(client);
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(
      'The forecast for tomorrow is sunny with a high of twenty degrees'.length,
    );
    await client.stream(speechAudio('what about sunday', { durationMs: 500 }));
    await client.stream(silenceAudio(1000));
    const eventsAfter = new Set(client.events.map((e) => e.type));
    expect([...eventsAfter].filter((t) => /interrupt|speech|cancel|truncat/.test(t))).toEqual([]);
    expect(said(client)).toBe(`${before} Sunday is rainy.`);
    const id = (client.ofType('session.delegation.created')[0] as { delegation: { id: string } }).delegation
      .id;
    client.send({ type: 'session.commentary.append', content: 'Late answer.', delegation_id: id });
    await client.stream(silenceAudio(1500));
    expect(said(client).endsWith('Late answer.')).toBe(true);
    expect(sim.sessions[0]?.speaking).toBe(false);
  });
});

describe('interim transcription (interimTranscriptMs)', () => {
  test("the first word goes out while the user speaks over the model: the client's only sign of a barge-in", async () => {
    const sim = await liveSimulator({ msPerChar: 10, interimTranscriptMs: 200 });
    const client = LiveSdkClient.primary(sim, { model: 'gpt-live-1' });
    await client.waitFor('session.started');
    sim.script('The forecast for tomorrow is sunny with a high of twenty degrees', 'Sunday is rainy.');
    await client.stream(speechAudio('weather', { durationMs: 300 }));
    await client.stream(silenceAudio(700));
    expect(sim.sessions[0]?.speaking).toBe(true);
    const heardBefore = client.ofType('session.input_transcript.delta').length;
    // 300 ms of a 600 ms utterance: the model already sent its first word, with the utterance's start.
    await client.stream(speechAudio('what about sunday', { durationMs: 600 }).subarray(0, 300 * 48));
    const interim = client.ofType('session.input_transcript.delta').slice(heardBefore);
    expect(interim.map((e) => e.delta)).toEqual(['what']);
    expect(interim[0]).toMatchObject({ start_ms: 1000, end_ms: 1200 });
    // The rest follows when the utterance ends, after the first word on the timeline, and nothing is said twice.
    await client.stream(speechAudio('what about sunday', { durationMs: 600 }).subarray(300 * 48));
    await client.stream(silenceAudio(700));
    const words = client.ofType('session.input_transcript.delta').slice(heardBefore);
    expect(words.map((e) => e.delta).join('')).toBe('what about sunday');
    for (const [i, w] of words.entries()) if (i > 0) expect(w.start_ms).toBeGreaterThanOrEqual(1200);
    expect(sim.sessions[0]?.transcript.filter((t) => t.role === 'user').map((t) => t.text)).toEqual([
      'weather',
      'what about sunday',
    ]);
  });
});

describe('Responses delegation', () => {
  const responses = {
    model: 'gpt-live-1',
    delegation: {
      type: 'responses',
      responses: {
        model: 'gpt-5.5',
        tools: [{ type: 'function', name: 'get_balance', parameters: { type: 'object' } }],
      },
    },
  };

  async function delegateTwoCalls() {
    const ctx = await connect(responses);
    ctx.sim.script({
      type: 'delegate',
      hosted: ['reasoning'],
      calls: [
        { name: 'get_balance', arguments: { account: 'checking' } },
        { name: 'get_balance', arguments: { account: 'savings' } },
      ],
      answer: (outputs) => `You have ${outputs.map((o) => o.output).join(' and ')}.`,
    });
    await ctx.client.stream(speechAudio('balances please', { durationMs: 500 }));
    await ctx.client.stream(silenceAudio(600));
    await ctx.client.waitFor(
      (e) => e.type === 'response.event' && (e.event as { type: string }).type === 'response.completed',
    );
    return ctx;
  }

  const nested = (client: LiveSdkClient) =>
    client
      .ofType('response.event')
      .map((e) => ({ delegation: e.delegation_id, ...(e.event as { type: string }) }));

  test('function calls stream inside response.event envelopes keyed by delegation; the snapshot output is empty', async () => {
    const { client } = await delegateTwoCalls();
    const created = client.ofType('session.delegation.created')[0] as {
      delegation: { id: string; target: string; response_id: string };
    };
    expect(created.delegation).toMatchObject({
      target: 'responses',
      response_id: expect.stringMatching(/^resp_/),
    });
    const events = nested(client);
    expect(events.every((e) => e.delegation === created.delegation.id)).toBe(true);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      ...Array(2)
        .fill([
          'response.output_item.added',
          'response.function_call_arguments.delta',
          'response.function_call_arguments.done',
          'response.output_item.done',
        ])
        .flat(),
      'response.completed',
    ]);
    expect(events[0]).toMatchObject({ response: { id: created.delegation.response_id } });
    expect(events.at(-1)).toMatchObject({
      response: { status: 'completed', output: [], usage: { total_tokens: expect.any(Number) } },
    });
    expect(
      events
        .filter((e) => e.type === 'response.output_item.done')
        .map((e) => (e as unknown as { item: unknown }).item),
    ).toMatchObject([
      { type: 'reasoning' },
      {
        type: 'function_call',
        status: 'completed',
        name: 'get_balance',
        arguments: '{"account":"checking"}',
      },
      { type: 'function_call', status: 'completed', arguments: '{"account":"savings"}' },
    ]);
  });

  test('the tool-result barrier: response.create before every output fails; after, one continuation is spoken', async () => {
    const { client } = await delegateTwoCalls();
    const calls = nested(client)
      .filter((e) => e.type === 'response.output_item.done')
      .map((e) => (e as unknown as { item: { call_id?: string } }).item.call_id)
      .filter((id): id is string => id !== undefined);
    client.send({
      type: 'response.item.create',
      event_id: 'o1',
      item: { type: 'function_call_output', call_id: calls[0] as string, output: '$5' },
    });
    client.send({ type: 'response.create', event_id: 'early' });
    expect(await client.waitFor('error')).toMatchObject({
      client_event_id: 'early',
      error: { code: 'function_call_outputs_required' },
    });
    client.send({
      type: 'response.item.create',
      item: { type: 'function_call_output', call_id: calls[1] as string, output: '$7' },
    });
    client.send({ type: 'response.create', event_id: 'go' });
    await client.waitFor(
      (e) => e.type === 'response.event' && (e.event as { type: string }).type === 'response.completed',
      2,
    );
    expect(client.ofType('error')).toHaveLength(1);
    const second = client.ofType('response.event').filter((e) => e.client_event_id === 'go');
    expect(second).toHaveLength(1);
    expect(second[0]?.event).toMatchObject({ type: 'response.created' });
    const text = nested(client).find((e) => e.type === 'response.output_text.done') as unknown as {
      text: string;
    };
    expect(text.text).toBe('You have $5 and $7.');
    await client.stream(silenceAudio(1500));
    expect(said(client)).toContain('You have $5 and $7.');
  });

  test('the backend input budget: 32 KB of outputs overflow with response_input_buffer_full and leave the call unanswered', async () => {
    const { client, sim } = await delegateTwoCalls();
    const calls = nested(client)
      .filter((e) => e.type === 'response.output_item.done')
      .map((e) => (e as unknown as { item: { call_id?: string } }).item.call_id)
      .filter((id): id is string => id !== undefined);
    client.send({
      type: 'response.item.create',
      item: { type: 'function_call_output', call_id: calls[0] as string, output: 'a'.repeat(30_000) },
    });
    client.send({
      type: 'response.item.create',
      event_id: 'big',
      item: { type: 'function_call_output', call_id: calls[1] as string, output: 'b'.repeat(5_000) },
    });
    client.send({ type: 'response.create', event_id: 'go' });
    await client.waitFor('error', 2);
    expect(client.ofType('error').map((e) => [e.client_event_id, e.error.code])).toEqual([
      ['big', 'response_input_buffer_full'],
      ['go', 'function_call_outputs_required'],
    ]);
    expect(sim.sessions[0]?.backendBudget.items).toBe(1);
  });

  test('client delegation refuses response.* and Responses delegation refuses a non-null delegation_id', async () => {
    const plain = await connect();
    plain.client.send({ type: 'response.create', event_id: 'rc' });
    expect(await plain.client.waitFor('error')).toMatchObject({
      error: { message: 'response.create requires Responses delegation.' },
    });
    await plain.sim.close();
    const { client } = await connect(responses);
    client.send({ type: 'session.commentary.append', event_id: 'c', content: 'hi', delegation_id: 'dlg_x' });
    expect(await client.waitFor('error')).toMatchObject({
      client_event_id: 'c',
      error: { param: 'delegation_id' },
    });
  });
});
