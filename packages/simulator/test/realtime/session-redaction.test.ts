import { Agent, RealtimeSession } from '@parley/core';
import { describe, expect, test } from 'vitest';
import { API_KEY, modelFor, simulator } from './helpers.js';

describe('what the service sends is redacted before it reaches an event', () => {
  test('error codes and response status details never carry the key', async () => {
    const sim = await simulator();
    const session = new RealtimeSession(new Agent({ name: 'Careful' }), {
      model: modelFor(sim),
      config: { outputModalities: ['text'] },
    });
    const seen: unknown[] = [];
    session.on('error', (e) => seen.push(e));
    session.on('response_done', (e) => seen.push(e));
    await session.connect();
    const server = await sim.waitForConnection();
    server.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: `bad_key_${API_KEY}`,
        message: 'Nope.',
        param: null,
        event_id: null,
      },
    });
    server.send({
      type: 'response.done',
      response: {
        object: 'realtime.response',
        id: 'resp_leaky',
        status: 'failed',
        status_details: {
          type: 'failed',
          error: { type: 'invalid_request_error', code: `quota_for_${API_KEY}` },
        },
        output: [],
        conversation_id: 'conv_1',
      },
    });
    await new Promise<void>((resolve) => {
      const stop = session.on('response_done', () => {
        stop();
        resolve();
      });
    });
    const text = JSON.stringify(seen);
    expect(seen).toHaveLength(2);
    expect(text).not.toContain(API_KEY);
    expect(text).toContain('[redacted]');
    await session.close();
  });
});
