import type {
  RealtimeCommand,
  RealtimeContentPart,
  RealtimeItem,
  RealtimeItemInput,
  RealtimeSessionConfig,
  RealtimeToolDefinition,
  ToolChoice,
  TurnDetectionConfig,
} from '@parley/core';
import type { WireSession } from '@parley/openai/wire';
import {
  CLIENT_REQUEST_ID_KEY,
  decodeBase64,
  isPlainObject,
  type JsonObject,
  stringField,
  toRealtimeItem,
} from '@parley/openai/wire';

function toToolChoice(value: unknown): ToolChoice | undefined {
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isPlainObject(value) && value.type === 'function' && typeof value.name === 'string') {
    return { type: 'function', name: value.name };
  }
  return undefined;
}

function toTools(value: unknown): RealtimeToolDefinition[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter(isPlainObject)
    .filter((tool) => tool.type !== 'mcp')
    .map((tool) => ({
      name: stringField(tool.name) ?? '',
      description: stringField(tool.description) ?? '',
      parameters: isPlainObject(tool.parameters) ? tool.parameters : {},
    }));
}

function toTurnDetection(value: unknown): TurnDetectionConfig | null | undefined {
  if (value === null) return null;
  if (!isPlainObject(value) || (value.type !== 'server_vad' && value.type !== 'semantic_vad'))
    return undefined;
  const config: TurnDetectionConfig = {};
  if (typeof value.create_response === 'boolean') config.createResponse = value.create_response;
  if (typeof value.interrupt_response === 'boolean') config.interruptResponse = value.interrupt_response;
  if (typeof value.silence_duration_ms === 'number') config.silenceDurationMs = value.silence_duration_ms;
  const providerOptions: Record<string, unknown> = { type: value.type };
  if (typeof value.threshold === 'number') providerOptions.threshold = value.threshold;
  if (typeof value.prefix_padding_ms === 'number') providerOptions.prefixPaddingMs = value.prefix_padding_ms;
  if (typeof value.eagerness === 'string') providerOptions.eagerness = value.eagerness;
  config.providerOptions = providerOptions;
  return config;
}

/** A GA session object (as sent or as reported) in the seam's shape; fields it does not carry stay absent. */
export function sessionToSeamConfig(session: Partial<WireSession> | JsonObject): RealtimeSessionConfig {
  const config: RealtimeSessionConfig = {};
  const s = session as JsonObject;
  if (typeof s.instructions === 'string') config.instructions = s.instructions;
  const tools = toTools(s.tools);
  if (tools) config.tools = tools;
  const toolChoice = toToolChoice(s.tool_choice);
  if (toolChoice) config.toolChoice = toolChoice;
  if (Array.isArray(s.output_modalities))
    config.outputModalities = [...(s.output_modalities as ('text' | 'audio')[])];
  const audio = isPlainObject(s.audio) ? s.audio : {};
  const input = isPlainObject(audio.input) ? audio.input : {};
  const output = isPlainObject(audio.output) ? audio.output : {};
  if (typeof output.voice === 'string') config.voice = output.voice;
  const turnDetection = toTurnDetection(input.turn_detection);
  if (turnDetection !== undefined) config.turnDetection = turnDetection;
  if (input.transcription === null) config.inputTranscription = null;
  else if (isPlainObject(input.transcription)) {
    const t = input.transcription;
    config.inputTranscription = {
      ...(typeof t.model === 'string' && { model: t.model }),
      ...(typeof t.language === 'string' && { language: t.language }),
    };
  }
  return config;
}

function toContent(part: unknown): RealtimeContentPart | undefined {
  if (!isPlainObject(part)) return undefined;
  if (part.type === 'input_text' || part.type === 'output_text')
    return { type: 'text', text: stringField(part.text) ?? '' };
  if (part.type === 'input_audio') {
    const content: RealtimeContentPart = { type: 'audio' };
    if (typeof part.audio === 'string') content.audio = decodeBase64(part.audio);
    if (typeof part.transcript === 'string') content.transcript = part.transcript;
    return content;
  }
  return undefined;
}

function toItem(item: JsonObject): RealtimeItemInput | undefined {
  const id = typeof item.id === 'string' ? { itemId: item.id } : {};
  if (item.type === 'message') {
    const role = item.role;
    if (role !== 'user' && role !== 'assistant' && role !== 'system') return undefined;
    const content = (Array.isArray(item.content) ? item.content : [])
      .map(toContent)
      .filter((part): part is RealtimeContentPart => part !== undefined);
    return { type: 'message', ...id, role, content };
  }
  if (item.type === 'function_call') {
    return {
      type: 'function_call',
      ...id,
      callId: stringField(item.call_id) ?? '',
      name: stringField(item.name) ?? '',
      arguments: stringField(item.arguments) ?? '',
    };
  }
  return undefined;
}

/**
 * A client event as the seam command that produced it (the inverse of the adapter's mapping), or `undefined` for
 * events that are not commands. A `function_call_output` item is a `sendToolOutput`; a `response.create` carries the
 * request id from its metadata (else its `event_id`).
 */
export function clientEventToCommand(event: unknown): RealtimeCommand | undefined {
  if (!isPlainObject(event)) return undefined;
  switch (event.type) {
    case 'session.update':
      return {
        type: 'updateSession',
        config: sessionToSeamConfig(isPlainObject(event.session) ? event.session : {}),
      };
    case 'input_audio_buffer.append':
      return { type: 'appendInputAudio', audio: decodeBase64(stringField(event.audio) ?? '') };
    case 'input_audio_buffer.commit':
      return { type: 'commitInputAudio' };
    case 'conversation.item.create': {
      const item = isPlainObject(event.item) ? event.item : {};
      if (item.type === 'function_call_output') {
        return {
          type: 'sendToolOutput',
          callId: stringField(item.call_id) ?? '',
          output: stringField(item.output) ?? '',
        };
      }
      const converted = toItem(item);
      if (!converted) return undefined;
      return { type: 'createItem', item: converted };
    }
    case 'conversation.item.delete':
      return { type: 'deleteItem', itemId: stringField(event.item_id) ?? '' };
    case 'conversation.item.truncate':
      return {
        type: 'truncateItem',
        itemId: stringField(event.item_id) ?? '',
        heardMs: typeof event.audio_end_ms === 'number' ? event.audio_end_ms : 0,
      };
    case 'response.create': {
      const response = isPlainObject(event.response) ? event.response : {};
      const metadata = isPlainObject(response.metadata) ? response.metadata : {};
      const clientRequestId =
        stringField(metadata[CLIENT_REQUEST_ID_KEY]) ?? stringField(event.event_id) ?? '';
      const tools = toTools(response.tools);
      const toolChoice = toToolChoice(response.tool_choice);
      return {
        type: 'createResponse',
        clientRequestId,
        ephemeral: response.conversation === 'none',
        ...(typeof response.instructions === 'string' && { instructions: response.instructions }),
        ...(tools && { tools }),
        ...(toolChoice && { toolChoice }),
      };
    }
    case 'response.cancel': {
      const responseId = stringField(event.response_id);
      return { type: 'cancelResponse', ...(responseId !== undefined && { responseId }) };
    }
    default:
      return undefined;
  }
}

/**
 * The seam commands a connection received, in order. The first `session.update` of a connection is the
 * configuration `connect()` applies, not a command, and is left out.
 */
export function seamCommandsOf(clientEvents: readonly unknown[]): RealtimeCommand[] {
  const commands: RealtimeCommand[] = [];
  let sawConnectUpdate = false;
  for (const event of clientEvents) {
    if (!sawConnectUpdate && isPlainObject(event) && event.type === 'session.update') {
      sawConnectUpdate = true;
      continue;
    }
    const command = clientEventToCommand(event);
    if (command) commands.push(command);
  }
  return commands;
}

/** Conversation items as the simulator stores them (GA wire items), in the seam's shape; unknown types are left out. */
export function conversationToSeamItems(items: readonly unknown[]): RealtimeItem[] {
  return items.map(toRealtimeItem).filter((item): item is RealtimeItem => item !== undefined);
}
