export type {
  CommandMatch,
  HarnessOutput,
  HarnessResponse,
  RealtimeHarness,
  RealtimeHarnessFactory,
} from './harness.js';
export { type ConformanceScenario, missingCapabilities } from './scenario.js';
export * from './scenarios/index.js';
export { type ConformanceSuiteOptions, defineConformanceSuite } from './suite.js';
export {
  audioItemIds,
  audioMsOf,
  commandsOf,
  EventRecorder,
  gate,
  openSession,
  ScenarioTimeoutError,
  WAIT_MS,
  withSession,
} from './support.js';
