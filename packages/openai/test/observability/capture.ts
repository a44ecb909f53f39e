/** Everything Parley traced and logged during a test: OpenTelemetry's in-memory exporter and a debug-level sink. */
import * as api from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { configureLogging, configureTracing, type LogSink } from '@parley/core';
import { afterEach } from 'vitest';

afterEach(() => {
  configureTracing();
  configureLogging();
});

/** Turns tracing and debug logging on for the test; both are turned off after it. */
export function captureTelemetry() {
  const exporter = new InMemorySpanExporter();
  configureTracing({
    api,
    tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  });
  const lines: { level: keyof LogSink; args: unknown[] }[] = [];
  const at =
    (level: keyof LogSink) =>
    (...args: unknown[]) =>
      void lines.push({ level, args });
  configureLogging({
    level: 'debug',
    sink: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
  });
  const spans = () => exporter.getFinishedSpans();
  return {
    spans,
    named: (name: string) => spans().filter((span) => span.name === name),
    lines,
    /** Every span's name, attributes, status and events, and every log line, as one string to search. */
    text: () =>
      JSON.stringify({
        spans: spans().map(({ name, attributes, status, events }) => ({ name, attributes, status, events })),
        lines,
      }),
  };
}
