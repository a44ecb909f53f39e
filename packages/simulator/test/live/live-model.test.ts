import {
  Agent,
  CapabilityNotSupportedError,
  RealtimeSession,
  type RealtimeSessionEvent,
  tool,
} from '@parley/core';
import { ManualClock, MockModel } from '@parley/mock';
import { OpenAILiveError, OpenAILiveModel, type OpenAILiveModelOptions } from '@parley/openai';
import { silenceAudio, speechAudio } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { closeAfterTest, liveSimulator } from './live-rig.js';

async function rig(
  options: { model?: Partial<OpenAILiveModelOptions>; delegate?: Agent; voice?: Agent } = {},
) {
  const sim = await liveSimulator({ msPerChar: 10 });
  const clock = new ManualClock();
  const model = new OpenAILiveModel({ apiKey: 'sk-live', url: sim.url, clock, ...options.model });
  const voice =
    options.voice ??
    new Agent({ name: 'Voice', instructions: 'Be brief. Delegate anything that needs data.' });
  const session = closeAfterTest(
    new RealtimeSession(voice, { model, clock, ...(options.delegate && { delegate: options.delegate }) }),
  );
  const events: RealtimeSessionEvent[] = [];
  const waiters: { match: (e: RealtimeSessionEvent) => boolean; resolve: () => void }[] = [];
  session.on('error', () => {});
  for (const type of [
    'delegation_requested',
    'delegation_started',
    'delegation_done',
    'delegation_approval_requested',
    'context_appended',
    'usage_updated',
    'tool_started',
    'tool_done',
    'transcript_delta',
    'response_done',
    'error',
    'history_updated',
  ] as const) {
    session.on(type, (event) => {
      events.push(event as RealtimeSessionEvent);
      for (const w of [...waiters]) {
        if (w.match(event as RealtimeSessionEvent)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    });
  }
  // Every input frame comes back as one output frame: speech (`audio`) or the silence between (`output_silence`).
  let framesOut = 0;
  let framesIn = 0;
  let frameWaiter: (() => void) | undefined;
  const frameOut = () => {
    framesOut++;
    if (framesOut >= framesIn) frameWaiter?.();
  };
  session.on('audio', frameOut);
  session.on('output_silence', frameOut);
  await session.connect();
  const live = await sim.waitForSession();
  return {
    sim,
    live,
    clock,
    session,
    events,
    ofType: <T extends RealtimeSessionEvent['type']>(type: T) =>
      events.filter((e) => e.type === type) as Extract<RealtimeSessionEvent, { type: T }>[],
    until: (match: (e: RealtimeSessionEvent) => boolean) =>
      events.some(match)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ match, resolve })),
    /** Sends `pcm` in 100 ms frames through the session and waits for as many output frames. */
    async speak(pcm: Uint8Array) {
      for (let at = 0; at < pcm.length; at += 4800) {
        session.sendAudio(pcm.subarray(at, at + 4800));
        framesIn++;
      }
      if (framesOut < framesIn) await new Promise<void>((resolve) => (frameWaiter = resolve));
      frameWaiter = undefined;
    },
  };
}

const said = (events: RealtimeSessionEvent[]) =>
  events
    .filter((e) => e.type === 'transcript_delta')
    .map((e) => (e as { delta: string }).delta)
    .join('');

describe('OpenAILiveModel behind the realtime seam', () => {
  test('declares what GPT-Live offers', () => {
    const client = new OpenAILiveModel({ apiKey: 'sk' });
    expect(client.capabilities).toEqual({
      ephemeralResponse: false,
      messageTruncation: false,
      mutableChatContext: false,
      turnDetection: false,
      userTranscription: true,
      audioOutput: true,
      mutableInstructions: false,
      mutableTools: false,
      autoToolResponseGeneration: false,
      responseRequests: false,
      delegation: true,
      contextAppends: true,
      continuousAudio: true,
    });
    expect(
      new OpenAILiveModel({ apiKey: 'sk', delegation: 'responses', backend: { model: 'gpt-5.5' } })
        .capabilities.mutableTools,
    ).toBe(true);
  });

  test('invalid options fail before connecting, with what to do', () => {
    expect(() => new OpenAILiveModel({ apiKey: 'sk', voice: 'marin' } as never)).toThrow(/voice/);
    expect(
      () => new OpenAILiveModel({ apiKey: 'sk', url: 'wss://x/v1/live/sessions?model=gpt-live-1' }),
    ).toThrow(/query/);
    expect(() => new OpenAILiveModel({ apiKey: 'sk', delegation: 'responses' })).toThrow(
      /backend: \{ model \}/,
    );
    expect(() => new OpenAILiveModel({ apiKey: 'sk', backend: { model: 'x' } })).toThrow(
      /only used with delegation/,
    );
    expect(() => new OpenAILiveModel({ apiKey: 'sk', sessionId: ' ' })).toThrow(/sessionId must be/);
  });

  test('a WebSocket constructor that throws rejects connect with a typed live_handshake_failed', async () => {
    const refusing = class {
      constructor() {
        throw new SyntaxError('Invalid URL');
      }
    };
    const model = new OpenAILiveModel({
      apiKey: 'sk-live',
      WebSocket: refusing as unknown as OpenAILiveModelOptions['WebSocket'],
    });
    const error = await model.connect({ config: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAILiveError);
    expect(error).toMatchObject({ code: 'live_handshake_failed', cause: expect.any(SyntaxError) });
  });

  test('session.start carries only known fields (the simulator is strict); a refused start rejects connect', async () => {
    const sim = await liveSimulator();
    const voice = new Agent({ name: 'V', instructions: 'x'.repeat(60_000) });
    const bad = new RealtimeSession(voice, {
      model: new OpenAILiveModel({ apiKey: 'sk-live', url: sim.url }),
    });
    const failure = await bad.connect().catch((e: unknown) => e);
    expect((failure as { cause?: unknown }).cause ?? failure).toBeInstanceOf(OpenAILiveError);
    await bad.close();
    const start = sim.clientEvents.find((e) => (e.event as { type: string }).type === 'session.start')
      ?.event as {
      session: Record<string, unknown>;
    };
    expect(Object.keys(start.session).sort()).toEqual(['audio', 'delegation', 'instructions', 'model']);
    expect(start.session).toMatchObject({
      model: 'gpt-live-1',
      audio: { format: { type: 'audio/pcm', rate: 24000 } },
      delegation: { type: 'client' },
    });
  });

  test('input silence keeps flowing while the app sends no audio, and stops when it does', async () => {
    const sent: string[] = [];
    class RecordingSocket extends WebSocket {
      override send(data: string): void {
        sent.push(JSON.parse(data).type);
        super.send(data);
      }
    }
    const { clock, session } = await rig({ model: { WebSocket: RecordingSocket as never } });
    const appends = () => sent.filter((t) => t === 'session.input_audio.append').length;
    await clock.advance(300);
    expect(appends()).toBe(3);
    session.sendAudio(silenceAudio(100));
    await clock.advance(100);
    expect(appends()).toBe(4); // the app's frame, no silence frame that period
    await clock.advance(200);
    expect(appends()).toBe(6);
    await session.close();
    await clock.advance(1000);
    expect(appends()).toBe(6);
    expect(sent.at(-1)).toBe('session.close');
  });

  test('a spoken turn: the user transcript enters history, the continuous output becomes one response with its transcript', async () => {
    const { sim, session, events, until, speak } = await rig();
    sim.script('Good morning to you.');
    await speak(speechAudio('good morning', { durationMs: 600 }));
    await speak(silenceAudio(2000));
    await until((e) => e.type === 'response_done');
    expect(said(events)).toBe('Good morning to you.');
    const messages = session.history
      .filter((h) => h.type === 'message')
      .map((h) => [h.role, (h as { text: string }).text]);
    expect(messages).toEqual([
      ['user', 'good morning'],
      ['assistant', 'Good morning to you.'],
    ]);
  });
});

describe('delegation to a Parley agent', () => {
  test('client delegation: the delegate runs on the conversation so far and its answer is spoken as commentary', async () => {
    const backend = new MockModel([MockModel.text('Staging is healthy: all 12 checks passed.')]);
    const delegate = new Agent({ name: 'Ops', instructions: 'Check systems.', model: backend });
    const { sim, live, events, ofType, until, speak } = await rig({ delegate });
    sim.script({ type: 'delegate' });
    await speak(speechAudio('check staging', { durationMs: 600 }));
    await speak(silenceAudio(600));
    await until((e) => e.type === 'delegation_done');
    await speak(silenceAudio(3000));
    await until((e) => e.type === 'context_appended');
    const [requested] = ofType('delegation_requested');
    expect(requested).toMatchObject({ target: 'app', offsetMs: 1100 });
    expect(ofType('delegation_done')).toEqual([
      {
        type: 'delegation_done',
        delegationId: requested?.delegationId,
        status: 'completed',
        output: 'Staging is healthy: all 12 checks passed.',
      },
    ]);
    expect(backend.calls[0]?.request.input).toMatchObject([
      { type: 'message', role: 'user', content: 'check staging' },
    ]);
    expect(live.delegations.get(requested?.delegationId ?? '')?.answers).toEqual([
      { kind: 'commentary', content: 'Staging is healthy: all 12 checks passed.' },
    ]);
    expect(ofType('context_appended')[0]).toMatchObject({ kind: 'commentary', startMs: expect.any(Number) });
    await until(() => said(events).includes('Staging is healthy'));
    expect(said(events)).toContain('One moment, let me check.');
  });

  test('a delegated tool that needs approval pauses only its delegation until the app approves', async () => {
    let deployed = 0;
    const deploy = tool({
      name: 'deploy',
      description: 'Deploy',
      parameters: z.object({ env: z.string() }),
      needsApproval: true,
      execute: () => {
        deployed++;
        return 'deployed';
      },
    });
    const backend = new MockModel([
      MockModel.toolCall('deploy', { env: 'staging' }),
      MockModel.text('Deployed to staging.'),
    ]);
    const delegate = new Agent({ name: 'Ops', model: backend, tools: [deploy] });
    const { sim, session, ofType, until, speak, live } = await rig({ delegate });
    sim.script({ type: 'delegate' });
    await speak(speechAudio('deploy staging', { durationMs: 600 }));
    await speak(silenceAudio(600));
    await until((e) => e.type === 'delegation_approval_requested');
    const [request] = ofType('delegation_approval_requested');
    expect(request).toMatchObject({ name: 'deploy', arguments: '{"env":"staging"}' });
    // The voice keeps going meanwhile: the acknowledgement is spoken, the timeline moves.
    await speak(silenceAudio(1000));
    expect(deployed).toBe(0);
    expect(ofType('delegation_done')).toEqual([]);
    session.approve(request?.callId ?? '');
    await until((e) => e.type === 'delegation_done');
    expect(deployed).toBe(1);
    // The delegate's call is on the session's events like the voice agent's, naming its delegation.
    expect(ofType('tool_started')).toEqual([
      expect.objectContaining({
        callId: request?.callId,
        name: 'deploy',
        arguments: '{"env":"staging"}',
        delegationId: request?.delegationId,
      }),
    ]);
    expect(ofType('tool_done')).toEqual([
      expect.objectContaining({
        callId: request?.callId,
        name: 'deploy',
        output: 'deployed',
        status: 'completed',
        delegationId: request?.delegationId,
      }),
    ]);
    await speak(silenceAudio(1500));
    expect(live.delegations.get(request?.delegationId ?? '')?.answers).toEqual([
      { kind: 'commentary', content: 'Deployed to staging.' },
    ]);
  });

  test('a delegate that fails still answers the delegation, in words', async () => {
    const backend = new MockModel([MockModel.error(new Error('backend down'))]);
    const delegate = new Agent({ name: 'Ops', model: backend });
    const { sim, ofType, until, speak } = await rig({ delegate });
    sim.script({ type: 'delegate' });
    await speak(speechAudio('check prod', { durationMs: 600 }));
    await speak(silenceAudio(600));
    await until((e) => e.type === 'delegation_done');
    expect(ofType('delegation_done')[0]).toMatchObject({
      status: 'failed',
      output: 'I could not complete that request.',
    });
  });

  test('a session with a delegate needs a provider that delegates', async () => {
    const { MockRealtimeModel } = await import('@parley/mock');
    expect(
      () =>
        new RealtimeSession(new Agent({ name: 'V' }), {
          model: new MockRealtimeModel(),
          delegate: new Agent({ name: 'B' }),
        }),
    ).toThrow(/declares no delegation/);
  });
});

describe('Responses delegation', () => {
  test("the backend's function calls run through the session's tools; exactly one response.create after every output", async () => {
    const getBalance = tool({
      name: 'get_balance',
      description: 'Account balance',
      parameters: z.object({ account: z.string() }),
      execute: ({ account }) => (account === 'checking' ? '$5' : '$7'),
    });
    const voice = new Agent({ name: 'Voice', instructions: 'Be brief.', tools: [getBalance] });
    const { sim, events, ofType, until, speak } = await rig({
      voice,
      model: { delegation: 'responses', backend: { model: 'gpt-5.5', instructions: 'Use tools.' } },
    });
    sim.script({
      type: 'delegate',
      calls: [
        { name: 'get_balance', arguments: { account: 'checking' } },
        { name: 'get_balance', arguments: { account: 'savings' } },
      ],
      answer: (outputs) => `You have ${outputs.map((o) => o.output).join(' and ')}.`,
    });
    await speak(speechAudio('my balances', { durationMs: 600 }));
    await speak(silenceAudio(600));
    await until((e) => e.type === 'tool_done' && ofType('tool_done').length === 2);
    while (!sim.clientEvents.some((e) => (e.event as { type: string }).type === 'response.create')) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await speak(silenceAudio(2000));
    const wire = sim.clientEvents.map(
      (e) => e.event as { type: string; item?: { call_id: string; output: string } },
    );
    const backendTypes = wire.filter((e) => e.type.startsWith('response.')).map((e) => e.type);
    expect(backendTypes).toEqual(['response.item.create', 'response.item.create', 'response.create']);
    expect(
      wire
        .filter((e) => e.item)
        .map((e) => e.item?.output)
        .sort(),
    ).toEqual(['$5', '$7']);
    expect(ofType('error')).toEqual([]);
    expect(ofType('delegation_requested')[0]).toMatchObject({ target: 'provider' });
    await until(() => said(events).includes('You have $5 and $7.'));
    const start = wire.find((e) => e.type === 'session.start') as unknown as {
      session: { delegation: unknown };
    };
    expect(start.session.delegation).toMatchObject({
      type: 'responses',
      responses: {
        model: 'gpt-5.5',
        instructions: 'Use tools.',
        tools: [{ type: 'function', name: 'get_balance' }],
      },
    });
  });
});

describe('Responses delegation budget', () => {
  test('an output that would overflow the 32 KB backend budget is not sent; the error says so and nothing continues', async () => {
    const dump = tool({
      name: 'dump',
      description: 'Dump logs',
      parameters: z.object({}),
      execute: () => 'x'.repeat(40_000),
    });
    const voice = new Agent({ name: 'Voice', tools: [dump] });
    const { sim, ofType, until, speak } = await rig({
      voice,
      model: { delegation: 'responses', backend: { model: 'gpt-5.5' } },
    });
    sim.script({ type: 'delegate', calls: [{ name: 'dump', arguments: {} }] });
    await speak(speechAudio('show the logs', { durationMs: 600 }));
    await speak(silenceAudio(600));
    await until((e) => e.type === 'error');
    expect(ofType('error')[0]).toMatchObject({ code: 'response_input_buffer_full', source: 'provider' });
    await speak(silenceAudio(500));
    const types = sim.clientEvents.map((e) => (e.event as { type: string }).type);
    expect(types.filter((t) => t.startsWith('response.'))).toEqual([]);
    expect(sim.sessions[0]?.backendBudget).toEqual({ items: 0, bytes: 0 });
  });
});

describe('reconnect', () => {
  test('a dropped connection means a new GPT-Live session; the conversation so far goes in as one silent thought', async () => {
    const { sim, live, session, until, speak, events } = await rig();
    sim.script('Good morning to you.');
    await speak(speechAudio('good morning', { durationMs: 600 }));
    await speak(silenceAudio(2000));
    await until((e) => e.type === 'response_done');
    const reconnected = new Promise((resolve) => session.on('reconnected', resolve));
    live.dropPrimary();
    expect(await reconnected).toMatchObject({ replayedItems: 1 });
    const next = await sim.waitForSession(1);
    expect(next.id).not.toBe(live.id);
    while (!sim.clientEvents.some((e) => e.sessionId === next.id)) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const replay = sim.clientEvents
      .filter((e) => e.sessionId === next.id)
      .map((e) => e.event as { type: string; content?: string; delegation_id?: unknown });
    expect(replay).toEqual([
      {
        type: 'session.thinking.append',
        event_id: 'parley_replay_1',
        delegation_id: null,
        content:
          'The conversation so far (the connection was renewed; do not repeat it):\nuser: good morning\nassistant: Good morning to you.',
      },
    ]);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
  });
});

describe('a connection cut mid-transcription', () => {
  test('a user turn still open when the connection drops gets no made-up final transcript: partial in history and in the replay', async () => {
    const { sim, live, session, clock, until, speak } = await rig();
    sim.script('Good morning to you.');
    await speak(speechAudio('good morning', { durationMs: 600 }));
    await speak(silenceAudio(2000));
    await until((e) => e.type === 'response_done');
    // The answer has played by the time the user speaks again (the session's playback runs on this clock).
    await clock.advance(1000);
    const reconnected = new Promise((resolve) => session.on('reconnected', resolve));
    // The user is mid-sentence: the start of the transcript arrives, then the network drops.
    live.transcribeUnfinished('what is my acc');
    live.dropPrimary();
    await reconnected;
    const users = session.history.filter((i) => i.type === 'message' && i.role === 'user');
    expect(users).toEqual([
      expect.objectContaining({ text: 'good morning', status: 'completed', interrupted: false }),
      expect.objectContaining({ text: 'what is my acc', status: 'incomplete', interrupted: true }),
    ]);
    const next = await sim.waitForSession(1);
    while (!sim.clientEvents.some((e) => e.sessionId === next.id)) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const [replay] = sim.clientEvents.filter((e) => e.sessionId === next.id).map((e) => e.event);
    expect((replay as { content: string }).content).toContain(
      'user: good morning\nassistant: Good morning to you.\nuser (cut off, transcript partial): what is my acc',
    );
  });
});

describe('reconnecting: a new GPT-Live session', () => {
  test('the startup input history goes into the new session.start again; the conversation since follows as one thought', async () => {
    const input = [
      { role: 'developer' as const, text: 'The caller is Ada; she banks with us.' },
      { role: 'assistant' as const, text: 'Hello Ada, how can I help?' },
    ];
    const wireInput = [
      { role: 'developer', content: [{ type: 'input_text', text: 'The caller is Ada; she banks with us.' }] },
      { role: 'assistant', content: [{ type: 'output_text', text: 'Hello Ada, how can I help?' }] },
    ];
    const { sim, live, session, until, speak } = await rig({ model: { input } });
    expect(live.resource.input).toEqual(wireInput);
    sim.script('Your balance is fine.');
    await speak(speechAudio('my balance', { durationMs: 600 }));
    await speak(silenceAudio(2000));
    await until((e) => e.type === 'response_done');
    const reconnected = new Promise((resolve) => session.on('reconnected', resolve));
    live.dropPrimary();
    await reconnected;
    const next = await sim.waitForSession(1);
    expect(next.id).not.toBe(live.id);
    expect(next.resource.input).toEqual(wireInput);
    const starts = sim.clientEvents
      .map((e) => e.event as { type: string; session?: { input?: unknown } })
      .filter((e) => e.type === 'session.start');
    expect(starts.map((e) => e.session?.input)).toEqual([wireInput, wireInput]);
    while (!sim.clientEvents.some((e) => e.sessionId === next.id)) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const [replay] = sim.clientEvents.filter((e) => e.sessionId === next.id).map((e) => e.event);
    expect(replay).toMatchObject({
      type: 'session.thinking.append',
      content: expect.stringContaining('user: my balance\nassistant: Your balance is fine.'),
    });
    // The startup history is not replayed twice: it is the new session's own start.
    expect((replay as { content: string }).content).not.toContain('Ada');
  });
});

describe('what GPT-Live lacks, through the session', () => {
  test('sendMessage and generateResponse are refused (responseRequests) before anything is sent; appendContext needs the capability', async () => {
    const { session, live, ofType, sim: simulator } = await rig();
    const sentBefore = simulator.clientEvents.length;
    expect(() => session.sendMessage('typed text', { respond: false })).toThrow(
      expect.objectContaining({ code: 'capability_not_supported', capability: 'responseRequests' }),
    );
    expect(() => session.generateResponse()).toThrow(CapabilityNotSupportedError);
    expect(
      simulator.clientEvents
        .slice(sentBefore)
        .filter((e) => (e.event as { type: string }).type !== 'session.input_audio.append'),
    ).toEqual([]);
    expect(ofType('error')).toEqual([]);
    expect(live.closed).toBe(false);
    const { MockRealtimeModel } = await import('@parley/mock');
    const mock = new RealtimeSession(new Agent({ name: 'M' }), { model: new MockRealtimeModel() });
    await mock.connect();
    expect(() => mock.appendContext('commentary', 'hi')).toThrow(/contextAppends/);
    await mock.close();
  });

  test('appendContext sends long text in appends the service accepts, each acknowledged on the timeline', async () => {
    const { session, live, ofType, until, speak } = await rig();
    const sentence = 'The quick brown fox jumps over the lazy dog. ';
    const ids = session.appendContext('thought', sentence.repeat(80));
    expect(ids).toHaveLength(3);
    await speak(silenceAudio(2500));
    await until(() => ofType('context_appended').length === 3);
    expect(ofType('context_appended').map((e) => [e.kind, e.clientRequestId])).toEqual(
      ids.map((id) => ['thought', id]),
    );
    expect(ofType('error')).toEqual([]);
    expect(live.transcript.filter((t) => t.role === 'assistant')).toEqual([]);
  });
});
