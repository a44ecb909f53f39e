import { UnknownOptionError } from '@parley/core';
import { ManualClock, MockRealtimeModel } from '@parley/mock';
import { expect, test } from 'vitest';

test.each([
  [
    () => new MockRealtimeModel({ sessionLifetime: 1000, clock: new ManualClock() } as never),
    "Unknown option 'sessionLifetime' in MockRealtimeModelOptions. Did you mean 'sessionLifetimeMs'?",
  ],
  [
    () => new MockRealtimeModel({ capabilities: { messageTruncate: false } } as never),
    "Unknown option 'capabilities.messageTruncate' in MockRealtimeModelOptions. Did you mean 'capabilities.messageTruncation'?",
  ],
])('realtime mock option typo %# is an UnknownOptionError naming the nearest key', (create, message) => {
  expect(create).toThrow(UnknownOptionError);
  expect(create).toThrow(message);
});

test('the simulated user’s options are checked too', async () => {
  const model = new MockRealtimeModel();
  const connection = await model.connect({ config: { turnDetection: {} } });
  const events: string[] = [];
  connection.onEvent((event) => events.push(event.type));
  expect(() => connection.userStartsSpeaking({ audioStart: 5 } as never)).toThrow(
    "Unknown option 'audioStart' in userStartsSpeaking() options.",
  );
  expect(() => connection.userStopsSpeaking({ transcipt: 'hi' } as never)).toThrow(
    "Unknown option 'transcipt' in userStopsSpeaking() options. Did you mean 'transcript'?",
  );
  expect(events).toEqual([]);
  await connection.close();
});
