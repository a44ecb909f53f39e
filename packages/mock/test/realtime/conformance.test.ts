import { defineConformanceSuite, servicePlaybackScenario } from '@parley/conformance';
import type { RealtimeCapability } from '@parley/core';
import { ALL_REALTIME_CAPABILITIES } from '@parley/mock';
import { createMockHarness } from './mock-harness.js';

defineConformanceSuite('mock (all capabilities)', () => createMockHarness());

// Every declared capability must pass its scenarios, and every scenario must work (or be skipped with
// the reason) when a capability is switched off.
for (const capability of Object.keys(ALL_REALTIME_CAPABILITIES) as RealtimeCapability[]) {
  defineConformanceSuite(`mock without ${capability}`, () => createMockHarness({ [capability]: false }));
}

// Where the service plays the audio (WebRTC, SIP): interruptions clear the service's playback instead of truncating.
defineConformanceSuite('mock with servicePlayback', () => createMockHarness({ servicePlayback: true }), {
  scenarios: [servicePlaybackScenario],
});
