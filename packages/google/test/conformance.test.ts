import { defineConformanceSuite } from '@parley/conformance';
import { GeminiLiveModel } from '../src/index.js';
import { createGeminiHarness } from './gemini-harness.js';

defineConformanceSuite('gemini', () =>
  createGeminiHarness({
    createModel: (simulator, transport) =>
      new GeminiLiveModel({
        apiKey: 'test-key',
        baseUrl: simulator.wsBaseUrl,
        keepalive: false,
        ...transport,
      }),
  }),
);
