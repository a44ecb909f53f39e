import * as api from '@opentelemetry/api';
import { configureTracing, UserError } from '@parley/core';
import { afterEach, expect, test } from 'vitest';

afterEach(() => configureTracing());

test('unknown tracing options fail with the nearest valid key', () => {
  expect(() => configureTracing({ api, tracerProvder: undefined } as never)).toThrow(
    "Did you mean 'tracerProvider'?",
  );
});

test('an api that is not @opentelemetry/api, or a provider without it, fails with what to pass', () => {
  expect(() => configureTracing({ api: {} as never })).toThrow(UserError);
  expect(() => configureTracing({ api: {} as never })).toThrow("import * as api from '@opentelemetry/api'");
  expect(() => configureTracing({ tracerProvider: api.trace.getTracerProvider() })).toThrow(
    'needs TracingOptions.api',
  );
  expect(() => configureTracing({ api, tracerProvider: {} as never })).toThrow('getTracer');
});
