export type {
  CommandMatch,
  HarnessOutput,
  HarnessResponse,
  RealtimeHarness,
  RealtimeHarnessFactory,
} from './harness.js';
export type { CapabilityStatus, CapabilityVerdict, ConformanceReport } from './report.js';
export { formatReport } from './report.js';
export {
  type CapabilityProbe,
  type ConformanceOptions,
  judgeCapabilities,
  runConformance,
} from './run.js';
export {
  type RunScenarioOptions,
  runScenario,
  type ScenarioResult,
  type ScenarioStatus,
} from './run-scenario.js';
export { type ConformanceScenario, missingCapabilities, scenarioCovers } from './scenario.js';
export * from './scenarios/index.js';
export { type ConformanceSuiteOptions, defineConformanceSuite } from './suite.js';
export {
  audioItemIds,
  audioMsOf,
  commandsOf,
  type Deferred,
  deferred,
  EventRecorder,
  openSession,
  ScenarioTimeoutError,
  WAIT_MS,
  withSession,
} from './support.js';
