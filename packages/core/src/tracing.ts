import { UserError } from './errors.js';
import { errorText } from './logger.js';
import { optionKeys } from './option-keys.js';

/**
 * What a span attribute holds: names, ids, counts and codes (the OpenTelemetry GenAI `gen_ai.*` attributes),
 * never keys or conversation content. `undefined` values are left out.
 */
export type TraceAttributes = Record<string, string | number | boolean | undefined>;

/** The part of an OpenTelemetry `Span` Parley uses. */
export interface OpenTelemetrySpan {
  setAttributes(attributes: Record<string, string | number | boolean>): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown;
  end(): void;
}

/** The part of an OpenTelemetry `Tracer` Parley uses. */
export interface OpenTelemetryTracer {
  startSpan(
    name: string,
    options?: { attributes?: Record<string, string | number | boolean> },
    context?: unknown,
  ): OpenTelemetrySpan;
}

/** The part of an OpenTelemetry `TracerProvider` Parley uses. */
export interface OpenTelemetryTracerProvider {
  getTracer(name: string, version?: string): OpenTelemetryTracer;
}

/** The part of the `@opentelemetry/api` module Parley uses: pass the module itself (`import * as api`). */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string, version?: string): OpenTelemetryTracer;
    setSpan(context: never, span: never): unknown;
  };
  context: { active(): unknown };
}

/** Options of {@link configureTracing}. */
export interface TracingOptions {
  /** The `@opentelemetry/api` module (`import * as api from '@opentelemetry/api'`); without it, no spans. */
  api?: OpenTelemetryApi;
  /** Where the tracer comes from. Default: the global provider the app registered with `api`. */
  tracerProvider?: OpenTelemetryTracerProvider;
}

const TRACING_OPTIONS = optionKeys<TracingOptions>('TracingOptions', { api: true, tracerProvider: true });
const TRACER_NAME = '@parley/core';
/** `SpanStatusCode.ERROR` of `@opentelemetry/api`. */
const STATUS_ERROR = 2;

interface Tracing {
  tracer: OpenTelemetryTracer;
  parentContext(parent: OpenTelemetrySpan | undefined): unknown;
}

let tracing: Tracing | undefined;

/**
 * Turns OpenTelemetry tracing on for the whole process: Parley's spans go to the tracer provider the app
 * registered with `@opentelemetry/api` (or to `tracerProvider`). `configureTracing()` turns it off again.
 * `@opentelemetry/api` is an optional peer dependency: the app imports it and passes the module, so Parley
 * never loads it itself (same code in Node, Bun, Deno and browsers).
 *
 * ```ts
 * import * as api from '@opentelemetry/api';
 * configureTracing({ api });
 * ```
 */
export function configureTracing(options: TracingOptions = {}): void {
  TRACING_OPTIONS.check(options);
  const { api, tracerProvider } = options;
  if (api === undefined) {
    if (tracerProvider !== undefined) {
      throw new UserError(
        "TracingOptions.tracerProvider needs TracingOptions.api: pass the module, e.g. `import * as api from '@opentelemetry/api'`.",
        { code: 'invalid_option' },
      );
    }
    tracing = undefined;
    return;
  }
  if (typeof api.trace?.getTracer !== 'function' || typeof api.context?.active !== 'function') {
    throw new UserError(
      "TracingOptions.api must be the @opentelemetry/api module: `import * as api from '@opentelemetry/api'`.",
      { code: 'invalid_option' },
    );
  }
  if (tracerProvider !== undefined && typeof tracerProvider.getTracer !== 'function') {
    throw new UserError(
      'TracingOptions.tracerProvider must have a getTracer method (an OpenTelemetry TracerProvider).',
      {
        code: 'invalid_option',
      },
    );
  }
  const setSpan = api.trace.setSpan as (context: unknown, span: OpenTelemetrySpan) => unknown;
  tracing = {
    tracer: (tracerProvider ?? api.trace).getTracer(TRACER_NAME),
    parentContext: (parent) =>
      parent ? setSpan.call(api.trace, api.context.active(), parent) : api.context.active(),
  };
}

/** @internal Whether spans are being recorded (so callers can skip setting up what only tracing needs). */
export function tracingEnabled(): boolean {
  return tracing !== undefined;
}

/** @internal One of Parley's spans; a shared no-op when tracing is off. */
export interface TraceSpan {
  set(attributes: TraceAttributes): void;
  event(name: string, attributes?: TraceAttributes): void;
  /** Marks the span failed with the error's type and message (messages are the ones the logs carry). */
  fail(error: unknown): void;
  end(): void;
  /** @internal */
  readonly native: OpenTelemetrySpan | undefined;
}

const NO_SPAN: TraceSpan = { set() {}, event() {}, fail() {}, end() {}, native: undefined };

function defined(attributes: TraceAttributes): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

/** The `error.type` of a thrown value: its `code`, else its class name. */
function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : typeof error;
}

/** @internal Starts a span (a child of `parent`, else of the active context); a no-op when tracing is off. */
export function startSpan(name: string, attributes: TraceAttributes, parent?: TraceSpan): TraceSpan {
  const current = tracing;
  if (!current) return NO_SPAN;
  const span = current.tracer.startSpan(
    name,
    { attributes: defined(attributes) },
    current.parentContext(parent?.native),
  );
  let ended = false;
  return {
    native: span,
    set: (more) => span.setAttributes(defined(more)),
    event: (eventName, more = {}) => span.addEvent(eventName, defined(more)),
    fail: (error) => {
      span.setAttributes({ 'error.type': errorType(error) });
      span.setStatus({ code: STATUS_ERROR, message: errorText(error) });
    },
    end: () => {
      if (ended) return;
      ended = true;
      span.end();
    },
  };
}

/** @internal Runs `work` inside a span that ends when it settles (failed when it throws). */
export async function inSpan<T>(
  name: string,
  attributes: TraceAttributes,
  parent: TraceSpan | undefined,
  work: (span: TraceSpan) => Promise<T>,
): Promise<T> {
  const span = startSpan(name, attributes, parent);
  try {
    return await work(span);
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}
