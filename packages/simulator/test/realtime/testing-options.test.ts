import { UnknownOptionError } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import {
  createSimulatorHarness,
  FastForwardClock,
  speechAudio,
  startLiveSimulator,
  startRealtimeSimulator,
} from '@parley/simulator';
import { expect, test } from 'vitest';

test.each([
  [
    () => startRealtimeSimulator({ sessionLimit: 1000 } as never),
    "Unknown option 'sessionLimit' in RealtimeSimulatorOptions. Did you mean 'sessionLimitMs'?",
  ],
  [
    () => startLiveSimulator({ apiKey: ['k'] } as never),
    "Unknown option 'apiKey' in LiveSimulatorOptions. Did you mean 'apiKeys'?",
  ],
  [
    () =>
      createSimulatorHarness({
        createModel: (sim: { url: string }) => new OpenAIRealtimeModel({ apiKey: 'sk-test', url: sim.url }),
        simulator: { brain: () => 'hi' },
      } as never),
    "Unknown option 'simulator.brain' in SimulatorHarnessOptions. Valid options: simulator.port",
  ],
  [
    () => createSimulatorHarness({ createModle: () => undefined } as never),
    "Unknown option 'createModle' in SimulatorHarnessOptions. Did you mean 'createModel'?",
  ],
])('testing entry option typo %# rejects before any server starts', async (start, message) => {
  const started = start();
  await expect(started).rejects.toBeInstanceOf(UnknownOptionError);
  await expect(started).rejects.toThrow(message);
});

test('speechAudio and FastForwardClock check their options too', () => {
  expect(() => speechAudio('hi', { duration: 500 } as never)).toThrow(
    "Unknown option 'duration' in SpeechAudioOptions. Did you mean 'durationMs'?",
  );
  expect(() => new FastForwardClock({ maxJump: 5 } as never)).toThrow(
    "Unknown option 'maxJump' in FastForwardClockOptions. Did you mean 'maxJumpMs'?",
  );
});
