import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { RawClient, type ServerEvent } from './raw-client.js';

type Session = Record<string, unknown> & {
  audio: { input: Record<string, unknown>; output: Record<string, unknown> };
};

const SERVER_VAD_DEFAULTS = {
  type: 'server_vad',
  threshold: 0.5,
  prefix_padding_ms: 300,
  silence_duration_ms: 200,
  idle_timeout_ms: null,
  create_response: true,
  interrupt_response: true,
};

async function update(client: RawClient, session: Record<string, unknown>): Promise<ServerEvent> {
  const before = client.events.length;
  client.send({ type: 'session.update', session: { type: 'realtime', ...session } });
  return client.waitFor(
    (e) => client.events.indexOf(e) >= before && (e.type === 'session.updated' || e.type === 'error'),
  );
}

describe('simulator: the full effective session, as the service reports it', () => {
  test('session.created reports every field, defaults included', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const session = client.events[0]?.session as Session;
    expect(Object.keys(session).sort()).toEqual(
      [
        'audio',
        'expires_at',
        'id',
        'include',
        'instructions',
        'max_output_tokens',
        'model',
        'object',
        'output_modalities',
        'prompt',
        'tool_choice',
        'tools',
        'tracing',
        'truncation',
        'type',
      ].sort(),
    );
    expect(session).toMatchObject({
      instructions: expect.stringMatching(/\S/),
      tools: [],
      tool_choice: 'auto',
      max_output_tokens: 'inf',
      tracing: null,
      truncation: 'auto',
      prompt: null,
      include: null,
    });
    expect(session.audio).toEqual({
      input: {
        format: { type: 'audio/pcm', rate: 24000 },
        transcription: null,
        noise_reduction: null,
        turn_detection: SERVER_VAD_DEFAULTS,
      },
      output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 },
    });
  });

  test('a partial server_vad turn_detection is reported with every field of its type', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const updated = await update(client, {
      audio: { input: { turn_detection: { type: 'server_vad', silence_duration_ms: 400 } } },
    });
    expect((updated.session as Session).audio.input.turn_detection).toEqual({
      ...SERVER_VAD_DEFAULTS,
      silence_duration_ms: 400,
    });
    // A later update of something else keeps it whole, and reports everything again.
    const next = await update(client, { instructions: 'Be brief.' });
    expect(next.session).toMatchObject({
      instructions: 'Be brief.',
      tools: [],
      tool_choice: 'auto',
      max_output_tokens: 'inf',
      audio: { input: { turn_detection: { ...SERVER_VAD_DEFAULTS, silence_duration_ms: 400 } } },
    });
  });

  test('semantic_vad is reported with eagerness and both response flags', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const updated = await update(client, {
      audio: { input: { turn_detection: { type: 'semantic_vad', interrupt_response: false } } },
    });
    expect((updated.session as Session).audio.input.turn_detection).toEqual({
      type: 'semantic_vad',
      eagerness: 'auto',
      create_response: true,
      interrupt_response: false,
    });
  });

  test('the session bound at start (like an ephemeral key configuration) is reported in full too', async () => {
    const sim = await simulator({
      session: { audio: { input: { turn_detection: { type: 'server_vad', threshold: 0.7 } } } },
    });
    const client = await RawClient.connect(sim);
    expect((client.events[0]?.session as Session | undefined)?.audio.input.turn_detection).toEqual({
      ...SERVER_VAD_DEFAULTS,
      threshold: 0.7,
    });
  });

  test('formats, voice, transcription, tools, tool_choice, max_output_tokens and instructions are reported as set', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const mcp = {
      type: 'mcp',
      server_label: 'docs',
      server_url: 'https://example.invalid/mcp',
      require_approval: 'never',
      allowed_tools: ['search'],
    };
    const fn = { type: 'function', name: 'lookup', description: 'Looks up', parameters: { type: 'object' } };
    const updated = await update(client, {
      instructions: 'Speak French.',
      max_output_tokens: 300,
      tools: [fn, mcp],
      tool_choice: { type: 'mcp', server_label: 'docs', name: 'search' },
      audio: {
        input: {
          format: { type: 'audio/pcm' },
          transcription: {
            model: 'gpt-transcribe',
            languages: ['fr', 'en'],
            keywords: ['Parley'],
            delay: 'low',
          },
        },
        output: { format: { type: 'audio/pcmu' }, voice: 'marin' },
      },
    });
    expect(updated.type).toBe('session.updated');
    expect(updated.session).toMatchObject({
      instructions: 'Speak French.',
      max_output_tokens: 300,
      tools: [fn, mcp],
      tool_choice: { type: 'mcp', server_label: 'docs', name: 'search' },
      audio: {
        input: {
          format: { type: 'audio/pcm', rate: 24000 },
          transcription: {
            model: 'gpt-transcribe',
            languages: ['fr', 'en'],
            keywords: ['Parley'],
            delay: 'low',
          },
          turn_detection: SERVER_VAD_DEFAULTS,
        },
        output: { format: { type: 'audio/pcmu' }, voice: 'marin', speed: 1 },
      },
    });
  });

  test.each([
    [
      { tools: [{ type: 'mcp', server_url: 'https://example.invalid' }] },
      'missing_required_parameter',
      'session.tools[0].server_label',
    ],
    [
      { tools: [{ type: 'mcp', server_label: 'x' }] },
      'missing_required_parameter',
      'session.tools[0].server_url',
    ],
    [
      { tools: [{ type: 'mcp', server_label: 'x', server_url: 'u', bogus: 1 }] },
      'unknown_parameter',
      'session.tools[0].bogus',
    ],
    [
      { audio: { input: { transcription: { model: 'gpt-transcribe', delay: 'slow' } } } },
      'invalid_value',
      'session.audio.input.transcription.delay',
    ],
    [
      { audio: { input: { transcription: { keywords: 'Parley' } } } },
      'invalid_type',
      'session.audio.input.transcription.keywords',
    ],
  ])('a bad newer field is refused whole: %j', async (session, code, param) => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    const reply = await update(client, { instructions: 'changed', ...session });
    expect(reply.type).toBe('error');
    expect(reply.error).toMatchObject({ code, param });
    expect(sim.connections[0]?.session.instructions).not.toBe('changed');
  });
});
