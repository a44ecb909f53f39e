import { MockRealtimeModel } from '@parley/mock';
import { OPENAI_REALTIME_CAPABILITIES } from '@parley/openai';
import { expect, test } from 'vitest';

test('MockRealtimeModel declares autoToolResponseGeneration as the OpenAI adapter does', () => {
  expect(new MockRealtimeModel().capabilities.autoToolResponseGeneration).toBe(
    OPENAI_REALTIME_CAPABILITIES.autoToolResponseGeneration,
  );
});
