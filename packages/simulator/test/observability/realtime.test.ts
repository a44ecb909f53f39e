import { EventRecorder } from '@parley/conformance';
import { Agent, RealtimeSession, tool } from '@parley/core';
import type { BrainTurn } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { captureTelemetry } from '../../../openai/test/observability/capture.js';
import { modelFor, simulator } from '../realtime/helpers.js';

/** Shaped like a real project key, so that a pattern-based redaction is put to the test too. */
const KEY = 'sk-proj-Q3vT9xLm2Rk8WfZa1Ncb7YhUe4JdPs0GiKo5rMqXt6Vw-Hy2Bn_E9uLf3Dk7SaZ1';
const USER_TEXT = 'SECRET-USER-TEXT my account is 4711';
const TOOL_QUERY = 'SECRET-TOOL-QUERY';
const TOOL_OUTPUT = 'SECRET-TOOL-OUTPUT';
const SPOKEN = 'SECRET-SPOKEN-REPLY';
const EPHEMERAL_CODE = 'SECRET-ONE-TIME-CODE-918273';

interface WireUsage {
  input_tokens: number;
  output_tokens: number;
}

/** Calls the tool, then speaks; an out-of-band request reads out the code its instructions carry. */
function brain(turn: BrainTurn) {
  if (turn.conversation === 'none') return `Your code is ${EPHEMERAL_CODE}.`;
  if (turn.toolOutputs.length > 0) return SPOKEN;
  return { type: 'function_call' as const, name: 'lookup', arguments: { q: TOOL_QUERY } };
}

describe('the OpenAI Realtime adapter: no span or log carries a key or what was said', () => {
  test('a tool turn, an ephemeral response and a provider error that quotes the key', async () => {
    const telemetry = captureTelemetry();
    const sim = await simulator({ brain });
    const lookup = tool({
      name: 'lookup',
      description: 'Look something up',
      parameters: z.object({ q: z.string() }),
      execute: () => TOOL_OUTPUT,
    });
    const session = new RealtimeSession(new Agent({ name: 'Voice', tools: [lookup] }), {
      model: modelFor(sim, { apiKey: KEY }),
    });
    const events = new EventRecorder(session);
    await session.connect();
    const server = await sim.waitForConnection(0);

    session.sendMessage(USER_TEXT);
    await events.waitFor('response_done', () => true, 2);
    const ephemeral = session.generateResponse({
      instructions: `Read out the one-time code ${EPHEMERAL_CODE}.`,
      addToHistory: false,
    });
    expect((await ephemeral.done).status).toBe('completed');
    expect(events.spokenText(await ephemeral)).toContain(EPHEMERAL_CODE);
    // The service quotes the key it was given in some error messages.
    server.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: 'invalid_api_key',
        message: `Incorrect API key provided: ${KEY}.`,
        param: null,
        event_id: null,
      },
    });
    await events.waitFor('error');
    await session.close();

    // What is there: the spans of the turn, with the provider's usage, and the provider error in the log.
    expect(telemetry.named('execute_tool lookup')).toHaveLength(1);
    const responses = telemetry.named('realtime.response');
    expect(responses.map((span) => span.attributes['parley.response.ephemeral'])).toEqual([
      false,
      false,
      true,
    ]);
    const usageOf = new Map<unknown, WireUsage>();
    for (const event of server.serverEvents) {
      if (event.type !== 'response.done') continue;
      const { id, usage } = event.response as { id: string; usage: WireUsage };
      usageOf.set(id, usage);
    }
    for (const span of responses) {
      const usage = usageOf.get(span.attributes['gen_ai.response.id']);
      expect(usage?.input_tokens).toBeGreaterThan(0);
      expect(span.attributes).toMatchObject({
        'gen_ai.usage.input_tokens': usage?.input_tokens,
        'gen_ai.usage.output_tokens': usage?.output_tokens,
      });
    }
    expect(telemetry.lines).toContainEqual({
      level: 'error',
      args: [
        expect.stringContaining('Incorrect API key provided'),
        expect.objectContaining({ code: 'invalid_api_key' }),
      ],
    });

    // What is not: the key (whole or its distinctive parts), the user's words, tool arguments and output, replies.
    const text = telemetry.text();
    for (const secret of [KEY, KEY.slice(8, 40), KEY.slice(-12), 'SECRET', '4711']) {
      expect(text).not.toContain(secret);
    }
  });
});
