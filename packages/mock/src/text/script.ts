import type {
  FunctionCallItem,
  HostedToolApprovalRequestItem,
  HostedToolCallItem,
  MessageItem,
  ModelRequest,
  Usage,
} from '@parley/core';

/**
 * A function call in a script. Without `callId`, the mock numbers calls through the conversation:
 * `call_1`, `call_2`, … (the next number not yet used in the request's input).
 */
export type MockFunctionCall = Omit<FunctionCallItem, 'callId'> & { callId?: string };

/**
 * An item a scripted response returns: an assistant message, a function call, or a hosted tool's call or approval
 * request (for a mock declaring `capabilities.hostedTools`).
 */
export type MockOutputItem =
  | MessageItem
  | MockFunctionCall
  | HostedToolCallItem
  | HostedToolApprovalRequestItem;

/** A scripted answer: the items the model returns. */
export interface MockOutputResponse {
  type: 'output';
  /** The items the model returns, in order. */
  output: MockOutputItem[];
  /** Overrides the mock's usage estimate for this call. */
  usage?: Partial<Usage>;
  /** Wait this long (on the mock's clock, abort-aware) before answering. */
  delayMs?: number;
  /** Default `mock_resp_<n>`. */
  responseId?: string;
}

/** A scripted failure: the model call rejects (or the stream throws) with `error`. */
export interface MockErrorResponse {
  type: 'error';
  /** What the call rejects with. */
  error: unknown;
  /** Wait this long (on the mock's clock, abort-aware) before failing. */
  delayMs?: number;
}

/** What one model call does. */
export type MockResponse = MockOutputResponse | MockErrorResponse;

/**
 * One entry of a {@link MockModel} script: consumed by exactly one model call. A function computes the
 * response from the request it answers (`call` is the 0-based index of the call on this model).
 */
export type MockScriptEntry = MockResponse | ((request: ModelRequest, call: number) => MockResponse);
