import { Agent, RealtimeSession } from '@parley/core';
import { createHold } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { modelFor, sent, simulator } from './helpers.js';

describe('barge-in follows the session the service confirmed', () => {
  test('a service session with interrupt_response false: the session cancels on user speech itself', async () => {
    // The app asks nothing about turn detection; the service's session (e.g. bound to a client secret) has
    // server VAD that does not cancel responses.
    const sim = await simulator({
      session: { audio: { input: { turn_detection: { type: 'server_vad', interrupt_response: false } } } },
    });
    const session = new RealtimeSession(new Agent({ name: 'Talker' }), {
      model: modelFor(sim),
      config: { outputModalities: ['text'] },
    });
    await session.connect();
    expect(session.confirmedConfig?.turnDetection).toMatchObject({
      providerOptions: { type: 'server_vad' },
      interruptResponse: false,
    });
    expect(Object.isFrozen(session.confirmedConfig)).toBe(true);
    expect(session.model.provider).toBe('openai');
    const server = await sim.waitForConnection();
    const hold = createHold();
    sim.script([{ type: 'hold', hold }, 'a long answer']);
    const responseId = await session.generateResponse();
    await hold.reached;
    server.startSpeech();
    await server.waitForClientEvent('response.cancel');
    expect(sent(server, 'response.cancel')).toEqual([
      expect.objectContaining({ type: 'response.cancel', response_id: responseId }),
    ]);
    await session.close();
  });
});
