export * from './agent.js';
export * from './clock.js';
export * from './context.js';
export * from './errors.js';
export * from './guardrails.js';
export * from './handoff.js';
export * from './items.js';
export {
  configureLogging,
  type LogFields,
  type LoggingOptions,
  type LogLevel,
  type LogSink,
} from './logger.js';
export * from './model.js';
export * from './option-keys.js';
export * from './realtime/audio.js';
export * from './realtime/seam.js';
export * from './realtime/session/index.js';
export * from './realtime/spec/v1/index.js';
export * from './runner/index.js';
export * from './tool.js';
export {
  configureTracing,
  type OpenTelemetryApi,
  type OpenTelemetrySpan,
  type OpenTelemetryTracer,
  type OpenTelemetryTracerProvider,
  type TraceAttributes,
  type TracingOptions,
} from './tracing.js';
export * from './usage.js';
