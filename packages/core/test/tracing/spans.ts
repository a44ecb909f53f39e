/** An in-memory OpenTelemetry pipeline for the tracing tests, and the span tree it collected. */
import * as api from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { configureTracing } from '@parley/core';

export interface SpanNode {
  name: string;
  children: SpanNode[];
}

export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const started: string[] = [];
  const startOrder: SpanProcessor = {
    onStart: (span) => void started.push(span.spanContext().spanId),
    onEnd: () => {},
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({
    spanProcessors: [startOrder, new SimpleSpanProcessor(exporter)],
  });
  configureTracing({ api, tracerProvider: provider });
  const spans = () => exporter.getFinishedSpans();
  return {
    spans,
    named: (name: string) => spans().filter((span) => span.name === name),
    /** The finished spans as a tree of names, children in start order. */
    tree(): SpanNode[] {
      const rank = (span: ReadableSpan) => started.indexOf(span.spanContext().spanId);
      const all = [...spans()].sort((a, b) => rank(a) - rank(b));
      const ids = new Set(all.map((span) => span.spanContext().spanId));
      const nodeOf = (span: ReadableSpan): SpanNode => ({
        name: span.name,
        children: all
          .filter((child) => child.parentSpanContext?.spanId === span.spanContext().spanId)
          .map(nodeOf),
      });
      return all.filter((span) => !ids.has(span.parentSpanContext?.spanId ?? '')).map(nodeOf);
    },
    /** Every attribute value and status message of every span, as one string. */
    text: () =>
      JSON.stringify(
        spans().map((span) => ({ attributes: span.attributes, status: span.status, events: span.events })),
      ),
    close: () => configureTracing(),
  };
}
