import { defaultHandoffToolName } from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import type { MockErrorResponse, MockOutputResponse, MockResponse } from './script.js';

/** Options shared by the output builders. */
export interface MockOutputOptions {
  /** A fixed call id for a function call (otherwise the mock assigns one). */
  callId?: string;
}

const OUTPUT_OPTIONS = optionKeys<MockOutputOptions>('MockOutputOptions', { callId: true });

/** A response with one assistant message. */
export function mockText(text: string): MockOutputResponse {
  return { type: 'output', output: [{ type: 'message', role: 'assistant', content: text }] };
}

/** A structured final output: `value` as JSON text in one assistant message. */
export function mockJson(value: unknown): MockOutputResponse {
  return mockText(JSON.stringify(value));
}

/**
 * A response with one function call. `args` is an object (sent as JSON) or a raw string, which lets a
 * test send arguments that are not valid JSON.
 */
export function mockToolCall(
  name: string,
  args: Record<string, unknown> | string = {},
  options: MockOutputOptions = {},
): MockOutputResponse {
  OUTPUT_OPTIONS.check(options);
  return {
    type: 'output',
    output: [
      {
        type: 'function_call',
        name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args),
        ...(options.callId === undefined ? {} : { callId: options.callId }),
      },
    ],
  };
}

/** A response that calls the default handoff tool of the agent named `agentName` (`transfer_to_<name>`). */
export function mockHandoff(agentName: string, options: MockOutputOptions = {}): MockOutputResponse {
  return mockToolCall(defaultHandoffToolName(agentName), {}, options);
}

/** One response made of the outputs of several, in order (e.g. text, then two tool calls). */
export function mockTurn(...parts: MockOutputResponse[]): MockOutputResponse {
  return { type: 'output', output: parts.flatMap((part) => part.output) };
}

/** A model call that fails with `error`. */
export function mockError(error: unknown): MockErrorResponse {
  return { type: 'error', error };
}

/** `response`, answered only after `ms` on the mock's clock (an abort ends the wait at once). */
export function mockDelay<T extends MockResponse>(ms: number, response: T): T {
  return { ...response, delayMs: ms };
}
