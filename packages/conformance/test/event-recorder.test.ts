import { EventRecorder, settlesWithin } from '@parley/conformance';
import {
  Agent,
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeConnection,
  type RealtimeEvent,
  RealtimeSession,
} from '@parley/core';
import { expect, test } from 'vitest';
import { NO_CAPABILITIES } from './inert-harness.js';

/** A session on a backend the test drives by hand: `drop()` is the provider losing the connection. */
async function connectedSession() {
  let deliver: ((event: RealtimeEvent) => void) | undefined;
  let status: RealtimeConnection['status'] = 'open';
  const session = new RealtimeSession(new Agent({ name: 'Line' }), {
    reconnect: false,
    model: {
      specificationVersion: REALTIME_SPECIFICATION_VERSION,
      provider: 'by-hand',
      capabilities: NO_CAPABILITIES,
      connect: async () => ({
        get status() {
          return status;
        },
        send: () => {},
        onEvent: (listener) => {
          deliver = listener;
          return () => {
            deliver = undefined;
          };
        },
        close: async () => {
          status = 'closed';
        },
      }),
    },
  });
  const drop = () => {
    status = 'closed';
    deliver?.({ type: 'connection_status', status: 'disconnected', reason: 'gone' });
  };
  return { session, drop };
}

test("via: 'listeners' records each event as it is emitted, including one right behind a disconnect that ends the iterators", async () => {
  const { session, drop } = await connectedSession();
  const listened = new EventRecorder(session, { via: 'listeners' });
  const iterated = new EventRecorder(session);
  await session.connect();
  expect(listened.types()).toEqual(['connection_status', 'connection_status', 'agent_started']);

  drop();
  // The line carries a key in the same turn as the drop: after the session ended its iterators.
  session.receiveDtmf('5');
  expect(listened.of('dtmf')).toEqual([{ type: 'dtmf', digit: '5', source: 'line' }]);
  await session.close();
  await Promise.all([listened.ended, iterated.ended]);

  expect(listened.events.slice(3)).toEqual([
    { type: 'connection_status', status: 'disconnected', reason: expect.any(String) },
    { type: 'agent_done', agent: session.currentAgent, reason: 'disconnect' },
    { type: 'dtmf', digit: '5', source: 'line' },
    { type: 'connection_status', status: 'closed' },
  ]);
  // The iterator records what came before the drop and after it had opened its next iterator, not the key between.
  expect(iterated.types()).toEqual([
    'connection_status',
    'connection_status',
    'agent_started',
    'connection_status',
    'agent_done',
    'connection_status',
  ]);
});

test("via: 'listeners' on a closed session: ended at once", async () => {
  const { session } = await connectedSession();
  await session.close();
  await settlesWithin(new EventRecorder(session, { via: 'listeners' }).ended, 'the recorder to end');
});

test('an unknown via is refused with a typed error that names the choices', async () => {
  const { session } = await connectedSession();
  expect(() => new EventRecorder(session, { via: 'polling' as never })).toThrow(
    expect.objectContaining({
      code: 'user_error',
      message: expect.stringContaining("'iterator' or 'listeners'"),
    }),
  );
  await session.close();
});
