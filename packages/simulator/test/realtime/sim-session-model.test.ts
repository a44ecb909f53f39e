import { UnknownOptionError } from '@parley/core';
import { startRealtimeSimulator } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { RawClient } from './raw-client.js';

/**
 * The URL sets a session's model. The reference confirms no refusal of a `session.update` that names a model, so
 * the simulator refuses one only when told to (`strict.modelChange`).
 */
describe("simulator: a session.update naming the session's model", () => {
  test("repeating the URL's model is accepted and the update applies", async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      event_id: 'same_model',
      session: { type: 'realtime', model: 'gpt-realtime', instructions: 'Be brief.' },
    });
    const updated = await client.waitFor('session.updated');
    expect(updated.session).toMatchObject({ model: 'gpt-realtime', instructions: 'Be brief.' });
    expect(client.ofType('error')).toEqual([]);
  });

  test("another model is accepted by default: the update applies, the session keeps the URL's model", async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      session: { type: 'realtime', model: 'gpt-realtime-2.1', instructions: 'Be brief.' },
    });
    const updated = await client.waitFor('session.updated');
    expect(updated.session).toMatchObject({ model: 'gpt-realtime', instructions: 'Be brief.' });
    expect(client.ofType('error')).toEqual([]);
  });

  test('strict.modelChange refuses another model (naming the request), and nothing of the update applies', async () => {
    const sim = await simulator({ strict: { modelChange: true } });
    const client = await RawClient.connect(sim);
    client.send({
      type: 'session.update',
      event_id: 'other_model',
      session: { type: 'realtime', model: 'gpt-realtime-2.1', instructions: 'Be brief.' },
    });
    const error = await client.waitFor('error');
    expect(error.error).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_value',
      message: 'The model of a session is set by the URL and cannot be changed.',
      param: 'session.model',
      event_id: 'other_model',
    });
    expect(sim.connections[0]?.session.instructions).not.toBe('Be brief.');
    // The same model still passes.
    client.send({ type: 'session.update', session: { type: 'realtime', model: 'gpt-realtime' } });
    await client.waitFor('session.updated');
    expect(client.ofType('error')).toHaveLength(1);
  });

  test('a model that is not a string is refused as invalid_type', async () => {
    const sim = await simulator();
    const client = await RawClient.connect(sim);
    client.send({ type: 'session.update', session: { type: 'realtime', model: 42 } });
    expect((await client.waitFor('error')).error).toMatchObject({
      code: 'invalid_type',
      param: 'session.model',
    });
  });

  test('strict takes known boolean keys only, checked before the server listens', async () => {
    await expect(startRealtimeSimulator({ strict: { modelChanges: true } as never })).rejects.toThrow(
      UnknownOptionError,
    );
    await expect(startRealtimeSimulator({ strict: { modelChange: 'yes' } as never })).rejects.toThrow(
      'strict.modelChange must be a boolean.',
    );
    await expect(startRealtimeSimulator({ strict: 'on' as never })).rejects.toThrow(TypeError);
  });
});
