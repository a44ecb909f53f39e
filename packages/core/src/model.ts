import type { HostedTool, HostedToolKind } from './hosted-tool.js';
import type { ConversationItem } from './items.js';
import type { Usage } from './usage.js';

/** The version of the text model interface this release of `@parley/core` implements. */
export const MODEL_SPECIFICATION_VERSION = 'parley.model.v1' as const;

/** A JSON Schema object, as produced by `z.toJSONSchema`. */
export type JsonSchema = { [key: string]: unknown };

/** What a text model promises by declaring each flag. */
export interface ModelCapabilities {
  /** `streamResponse` yields deltas as they are produced (not one event at the end). */
  streaming: boolean;
  /** The model accepts function tools and can return function calls. */
  tools: boolean;
  /** The model can be constrained to a JSON Schema for its final output. */
  structuredOutput: boolean;
  /** The model may return several function calls in one response. */
  parallelToolCalls: boolean;
  /**
   * The hosted tool kinds the model runs (see `hostedTool()`); absent or empty: none. The Runner fails a run
   * that offers another kind before the request.
   */
  hostedTools?: readonly HostedToolKind[];
}

/** How a model may pick tools. */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; name: string };

/** Sampling and tool settings forwarded to the model; providers ignore what they do not support. */
export interface ModelSettings {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  /** Provider-specific options, passed through untouched. */
  providerData?: Record<string, unknown>;
}

/** A function the model may call: a tool or a handoff, described by its JSON Schema. */
export interface ToolDefinition {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  /** `true` for handoff tools, so providers and logs can tell them apart. */
  isHandoff?: boolean;
}

/** One model call. */
export interface ModelRequest {
  systemInstructions?: string;
  input: ConversationItem[];
  tools: ToolDefinition[];
  /** Tools the provider runs itself; set only when the agent has some and the model declares their kinds. */
  hostedTools?: HostedTool[];
  /** When set, the final output must be JSON matching this schema. */
  outputSchema?: JsonSchema;
  modelSettings: ModelSettings;
}

/** The complete answer of one model call. */
export interface ModelResponse {
  output: ConversationItem[];
  usage: Usage;
  responseId?: string;
  /** The provider's raw response, for debugging; never interpreted by the core. */
  raw?: unknown;
}

/** Events of a streamed model call; the last one is always `response_done`. */
export type ModelStreamEvent =
  | { type: 'response_started'; responseId?: string }
  | { type: 'text_delta'; delta: string }
  | { type: 'response_done'; response: ModelResponse }
  /** A provider event passed through as-is, for apps that want it. */
  | { type: 'raw'; event: unknown };

/**
 * A text model: one call per Runner turn. Implementations must honour `signal` by rejecting
 * (or ending the stream) promptly once it is aborted.
 */
export interface Model {
  readonly specificationVersion: typeof MODEL_SPECIFICATION_VERSION;
  /** A short provider name, e.g. `openai` or `mock`. */
  readonly provider: string;
  readonly capabilities: ModelCapabilities;
  getResponse(request: ModelRequest, options: { signal?: AbortSignal }): Promise<ModelResponse>;
  streamResponse(request: ModelRequest, options: { signal?: AbortSignal }): AsyncIterable<ModelStreamEvent>;
}

/** Resolves a model name (from `Agent.model` or the run options) to a {@link Model}. */
export interface ModelProvider {
  getModel(name?: string): Model | Promise<Model>;
}
