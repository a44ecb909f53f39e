import { describe, expect, test } from 'vitest';
import { connected, sent } from './helpers.js';

describe('smoke', () => {
  test('text turn round trip', async () => {
    const { connection, log, server } = await connected(
      {},
      {},
      { instructions: 'Be brief.', outputModalities: ['text'] },
    );
    connection.send({
      type: 'createItem',
      item: { type: 'message', role: 'user', content: [{ type: 'text', text: 'Hi there' }] },
    });
    connection.send({ type: 'createResponse', clientRequestId: 'req_1', conversation: 'default' });
    const done = await log.waitFor('response_done');
    expect(done.status).toBe('completed');
    expect(done.clientRequestId).toBe('req_1');
    const text = log
      .ofType('text_delta')
      .map((e) => e.delta)
      .join('');
    expect(text).toBe('You said: Hi there');
    expect(sent(server, 'session.update')[0]).toMatchObject({
      session: { type: 'realtime', instructions: 'Be brief.' },
    });
    console.log(log.types());
  });
});
