import type {
  RealtimeAudioFormat,
  RealtimeHostedTool,
  RealtimeSessionConfig,
  RealtimeToolDefinition,
  ToolChoice,
  TurnDetectionConfig,
} from '@parley/core';
import { deepMerge, type JsonObject } from '../shared/deep-merge.js';
import { toWireMcpTool } from '../shared/mcp-wire-tool.js';
import {
  PCM_24K,
  type WireAudioFormat,
  type WireFunctionTool,
  type WireMcpTool,
  type WireSession,
  type WireTool,
  type WireToolChoice,
  type WireTurnDetection,
} from '../shared/realtime-wire.js';
import type { OpenAIRealtimeSessionConfig, OpenAITurnDetectionOptions } from './options.js';

/** The transcription model used when `inputTranscription` names none. */
export const DEFAULT_TRANSCRIPTION_MODEL = 'gpt-4o-mini-transcribe';

/**
 * Applies an `updateSession` to the effective configuration: fields left out keep their value, `providerData`
 * merges key by key, everything else replaces.
 */
export function mergeSessionConfig(
  current: RealtimeSessionConfig,
  update: RealtimeSessionConfig,
): RealtimeSessionConfig {
  const next: RealtimeSessionConfig = { ...current };
  for (const key of Object.keys(update) as (keyof RealtimeSessionConfig)[]) {
    const value = update[key];
    if (value === undefined) continue;
    if (key === 'providerData') {
      next.providerData = deepMerge(current.providerData ?? {}, value as JsonObject);
    } else {
      (next as Record<string, unknown>)[key] = value;
    }
  }
  return next;
}

/** A tool of the seam as a GA function tool. */
export function toWireTool(tool: RealtimeToolDefinition): WireFunctionTool {
  return { type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters };
}

/** A hosted tool of the seam (a remote MCP server the service calls) as a GA `mcp` tool. */
export function toWireHostedTool(tool: RealtimeHostedTool): WireMcpTool {
  return toWireMcpTool(tool);
}

/** The credentials hosted tools carry (header values, an `authorization` token): scrubbed from what the app sees. */
export function hostedToolSecrets(tools: readonly RealtimeHostedTool[] | undefined): string[] {
  const secrets: string[] = [];
  for (const tool of tools ?? []) {
    for (const value of Object.values(tool.headers ?? {})) secrets.push(value);
    const authorization = tool.providerData?.authorization;
    if (typeof authorization === 'string') secrets.push(authorization);
  }
  // Short values (`json`, `1`) are no credentials, and scrubbing them would garble messages.
  return secrets.filter((secret) => secret.length >= 8);
}

/** The one tool list of the wire: the function tools, then the hosted ones. */
export function toWireTools(
  tools: readonly RealtimeToolDefinition[] | undefined,
  hostedTools: readonly RealtimeHostedTool[] | undefined,
): WireTool[] {
  return [...(tools ?? []).map(toWireTool), ...(hostedTools ?? []).map(toWireHostedTool)];
}

/** The seam's tool choice on the wire. */
export function toWireToolChoice(choice: ToolChoice): WireToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

function toWireTurnDetection(config: TurnDetectionConfig): WireTurnDetection {
  const options = (config.providerOptions ?? {}) as OpenAITurnDetectionOptions;
  const type = options.type ?? 'server_vad';
  const wire: WireTurnDetection = { type };
  if (type === 'server_vad') {
    if (options.threshold !== undefined) wire.threshold = options.threshold;
    if (options.prefixPaddingMs !== undefined) wire.prefix_padding_ms = options.prefixPaddingMs;
    if (config.silenceDurationMs !== undefined) wire.silence_duration_ms = config.silenceDurationMs;
  } else if (options.eagerness !== undefined) {
    wire.eagerness = options.eagerness;
  }
  if (config.createResponse !== undefined) wire.create_response = config.createResponse;
  if (config.interruptResponse !== undefined) wire.interrupt_response = config.interruptResponse;
  return wire;
}

/** The session object's `audio.input.turn_detection`; `undefined` when it does not say. */
export function wireTurnDetectionOf(session: WireSession): WireTurnDetection | null | undefined {
  const input = session.audio?.input;
  return input && 'turn_detection' in input ? input.turn_detection : undefined;
}

/** The service's turn detection in the seam's shape; `undefined` when the session object does not say. */
export function fromWireTurnDetection(
  wire: WireTurnDetection | null | undefined,
): TurnDetectionConfig | null | undefined {
  if (wire === null || wire === undefined) return wire;
  const providerOptions: OpenAITurnDetectionOptions = { type: wire.type };
  if (wire.threshold !== undefined) providerOptions.threshold = wire.threshold;
  if (wire.prefix_padding_ms !== undefined) providerOptions.prefixPaddingMs = wire.prefix_padding_ms;
  if (wire.eagerness !== undefined) providerOptions.eagerness = wire.eagerness;
  const config: TurnDetectionConfig = { providerOptions: { ...providerOptions } };
  if (wire.silence_duration_ms !== undefined) config.silenceDurationMs = wire.silence_duration_ms;
  if (wire.create_response !== undefined) config.createResponse = wire.create_response;
  if (wire.interrupt_response !== undefined) config.interruptResponse = wire.interrupt_response;
  return config;
}

/** A seam audio format as the GA wire names it. */
export function toWireFormat(format: RealtimeAudioFormat): WireAudioFormat {
  if (format === 'g711_ulaw') return { type: 'audio/pcmu' };
  if (format === 'g711_alaw') return { type: 'audio/pcma' };
  return PCM_24K;
}

/**
 * The complete GA session object for the effective configuration: the model's `sessionConfig` underneath, the
 * seam's fields over it, `providerData` last. Audio formats are always set (PCM16 24 kHz unless the configuration
 * names G.711), so no update can reset them.
 */
export function toWireSession(
  base: OpenAIRealtimeSessionConfig,
  config: RealtimeSessionConfig,
  transcriptionModel: string = DEFAULT_TRANSCRIPTION_MODEL,
): WireSession {
  const seam: JsonObject = { audio: { input: { format: PCM_24K }, output: { format: PCM_24K } } };
  const input = (seam.audio as { input: JsonObject }).input;
  const output = (seam.audio as { output: JsonObject }).output;
  if (config.instructions !== undefined) seam.instructions = config.instructions;
  if (config.tools !== undefined || config.hostedTools !== undefined) {
    seam.tools = toWireTools(config.tools, config.hostedTools);
  }
  if (config.toolChoice !== undefined) seam.tool_choice = toWireToolChoice(config.toolChoice);
  if (config.outputModalities !== undefined) seam.output_modalities = [...config.outputModalities];
  if (config.voice !== undefined) output.voice = config.voice;
  if (config.inputAudioFormat !== undefined) input.format = toWireFormat(config.inputAudioFormat);
  if (config.outputAudioFormat !== undefined) output.format = toWireFormat(config.outputAudioFormat);
  if (config.turnDetection !== undefined) {
    input.turn_detection = config.turnDetection === null ? null : toWireTurnDetection(config.turnDetection);
  }
  if (config.inputTranscription !== undefined) {
    const t = config.inputTranscription;
    input.transcription =
      t === null
        ? null
        : {
            model: t.model ?? transcriptionModel,
            ...(t.language !== undefined && { language: t.language }),
          };
  }
  let session = deepMerge({ type: 'realtime' } as JsonObject, base as JsonObject);
  session = deepMerge(session, seam);
  if (config.providerData) session = deepMerge(session, config.providerData);
  session.type = 'realtime';
  return session as WireSession;
}

/** A transcription session's update (`type: 'transcription'`): only the input audio settings and `include`. */
export function toTranscriptionSession(session: WireSession): WireSession {
  const input = { ...session.audio?.input };
  return {
    type: 'transcription',
    audio: { input },
    ...(session.include !== undefined && { include: session.include }),
  };
}
