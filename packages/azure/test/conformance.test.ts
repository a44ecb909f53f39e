import { defineConformanceSuite } from '@parley/conformance';
import { createAzureHarness, LEGACY_API_VERSION } from './harness.js';

defineConformanceSuite('azure (GA)', () => createAzureHarness());
defineConformanceSuite('azure (legacy preview, beta dialect)', () =>
  createAzureHarness({ apiVersion: LEGACY_API_VERSION }),
);
