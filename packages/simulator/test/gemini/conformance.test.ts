import { defineConformanceSuite, harnessSkips } from '@parley/conformance';
import { expect } from 'vitest';
import { createGeminiLiveHarness } from './gemini-harness.js';

defineConformanceSuite('gemini', createGeminiLiveHarness, {
  // Every scenario runs, or is skipped for a capability Gemini Live does not declare: none because the harness
  // could not script it.
  onReport: (report) => {
    expect(harnessSkips(report).map((r) => `${r.scenario}: ${r.reason}`)).toEqual([]);
  },
});
