import { MockRealtimeModel } from '@parley/mock';
import { OPENAI_REALTIME_CAPABILITIES } from '@parley/openai';
import { expect, test } from 'vitest';

test('MockRealtimeModel declares autoToolReplyGeneration as the OpenAI adapter does', () => {
  expect(new MockRealtimeModel().capabilities.autoToolReplyGeneration).toBe(
    OPENAI_REALTIME_CAPABILITIES.autoToolReplyGeneration,
  );
});
