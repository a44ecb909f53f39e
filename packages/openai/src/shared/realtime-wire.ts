/**
 * The OpenAI Realtime GA wire shapes Parley reads and writes (see the protocol reference). Only the fields Parley
 * uses are typed; the service may send more, and readers must tolerate that.
 */

/** An audio format of the GA session object. */
export type WireAudioFormat =
  | { type: 'audio/pcm'; rate: 24000 }
  | { type: 'audio/pcmu' }
  | { type: 'audio/pcma' };

/** Bytes per millisecond of a GA audio format: PCM16 24 kHz is 48; G.711 (8 kHz, 1 byte a sample) is 8. */
export function wireBytesPerMs(format: WireAudioFormat | undefined): number {
  return format === undefined || format.type === 'audio/pcm' ? 48 : 8;
}

/** `audio.input.turn_detection` of the GA session object. */
export interface WireTurnDetection {
  type: 'server_vad' | 'semantic_vad';
  threshold?: number;
  prefix_padding_ms?: number;
  silence_duration_ms?: number;
  idle_timeout_ms?: number | null;
  eagerness?: 'low' | 'medium' | 'high' | 'auto';
  create_response?: boolean;
  interrupt_response?: boolean;
}

/** A function tool as the Realtime API takes it. */
export interface WireFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/** A remote MCP server the service calls itself (`type: 'mcp'`); only the fields Parley reads are typed. */
export interface WireMcpTool {
  type: 'mcp';
  server_label: string;
  server_url?: string;
  connector_id?: string;
  [extra: string]: unknown;
}

/** A tool of a session or response. */
export type WireTool = WireFunctionTool | WireMcpTool;

/** `tool_choice` on the wire. */
export type WireToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { type: 'function'; name: string }
  | { type: 'mcp'; server_label: string; name?: string };

/** `audio.input.transcription` of the GA session object. */
export interface WireTranscription {
  model?: string;
  language?: string;
  prompt?: string;
  /** Newer transcription models: possible languages, guiding keywords, and how long to wait for accuracy. */
  languages?: string[];
  keywords?: string[];
  delay?: 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
}

/** The GA session object (`type: 'realtime'`) as sent in `session.update` and received in `session.*`. */
export interface WireSession {
  type: 'realtime' | 'transcription';
  object?: 'realtime.session' | 'realtime.transcription_session';
  id?: string;
  model?: string;
  output_modalities?: ('text' | 'audio')[];
  instructions?: string;
  audio?: {
    input?: {
      format?: WireAudioFormat;
      transcription?: WireTranscription | null;
      noise_reduction?: { type: 'near_field' | 'far_field' } | null;
      turn_detection?: WireTurnDetection | null;
    };
    output?: { format?: WireAudioFormat; voice?: string | { id: string }; speed?: number };
  };
  tools?: WireTool[];
  tool_choice?: WireToolChoice;
  max_output_tokens?: number | 'inf';
  tracing?: unknown;
  truncation?: unknown;
  prompt?: unknown;
  include?: string[] | null;
  expires_at?: number;
  [extra: string]: unknown;
}

/** A content part of a GA message item. */
export type WireContentPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_audio'; audio?: string; transcript?: string | null }
  | { type: 'input_image'; image_url: string; detail?: 'auto' | 'low' | 'high' }
  | { type: 'output_text'; text: string }
  | { type: 'output_audio'; audio?: string; transcript?: string | null }
  // beta spellings, and the `part.type` of `response.content_part.*` on the GA wire
  | { type: 'text'; text: string }
  | { type: 'audio'; audio?: string; transcript?: string | null };

/** A GA conversation item. */
export type WireItem =
  | {
      type: 'message';
      id?: string;
      object?: 'realtime.item';
      role: 'user' | 'assistant' | 'system';
      status?: 'completed' | 'incomplete' | 'in_progress';
      content: WireContentPart[];
    }
  | {
      type: 'function_call';
      id?: string;
      object?: 'realtime.item';
      status?: 'completed' | 'incomplete' | 'in_progress';
      call_id?: string;
      name: string;
      arguments: string;
    }
  | {
      type: 'function_call_output';
      id?: string;
      object?: 'realtime.item';
      status?: 'completed' | 'incomplete' | 'in_progress';
      call_id: string;
      output: string;
    }
  | WireMcpItem;

/** The items of a hosted MCP server (`mcp` tools): its tool list, a call, and an approval asked and given. */
export type WireMcpItem =
  | {
      type: 'mcp_list_tools';
      id?: string;
      object?: 'realtime.item';
      server_label: string;
      tools: { name: string; description?: string | null; input_schema: unknown; annotations?: unknown }[];
      error?: string | null;
    }
  | {
      type: 'mcp_call';
      id?: string;
      object?: 'realtime.item';
      server_label: string;
      name: string;
      arguments: string;
      approval_request_id?: string | null;
      output?: string | null;
      error?: unknown;
    }
  | {
      type: 'mcp_approval_request';
      id?: string;
      object?: 'realtime.item';
      server_label: string;
      name: string;
      arguments: string;
    }
  | {
      type: 'mcp_approval_response';
      id?: string;
      object?: 'realtime.item';
      approval_request_id: string;
      approve: boolean;
      reason?: string | null;
    };

/** `response.create.response` (GA `RealtimeResponseCreateParams`). */
export interface WireResponseCreateParams {
  conversation?: 'auto' | 'none';
  input?: (WireItem | { type: 'item_reference'; id: string })[];
  instructions?: string;
  tools?: WireTool[];
  tool_choice?: WireToolChoice;
  output_modalities?: ('text' | 'audio')[];
  metadata?: Record<string, string> | null;
  max_output_tokens?: number | 'inf';
  audio?: { output?: { format?: WireAudioFormat; voice?: string } };
}

/** The body of a server `error` event. */
export interface WireError {
  type: string;
  code?: string | null;
  message: string;
  param?: string | null;
  event_id?: string | null;
}

/** PCM16 at 24 kHz, the only format Parley's seam speaks. */
export const PCM_24K: WireAudioFormat = { type: 'audio/pcm', rate: 24000 };
