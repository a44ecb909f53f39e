import { defineConformanceSuite } from '@parley/conformance';
import { createGeminiLiveHarness } from './gemini-harness.js';

defineConformanceSuite('gemini', createGeminiLiveHarness);
