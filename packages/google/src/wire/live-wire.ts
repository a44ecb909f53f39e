/**
 * The Gemini Live (`BidiGenerateContent`) wire catalogue: every client and server message with the fields Parley
 * reads or writes, as the service spells them on the wire (JSON, camelCase). Each message carries exactly one
 * top-level field. The adapter writes client messages and reads server messages through it; the simulator does the
 * reverse. Names and shapes only, no logic; readers must still tolerate extra fields and unknown messages. The test
 * suite checks these shapes against `@google/genai`'s own types.
 */
import type { RealtimeConnection } from '@parley/core';

/** Audio, video or another media chunk: base64 `data` with its MIME type (`audio/pcm;rate=16000`). */
export interface GeminiBlob {
  data: string;
  mimeType: string;
}

export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
}

/** One part of a turn: text, inline audio, or a function call / response (in replayed history). */
export interface GeminiPart {
  text?: string;
  inlineData?: GeminiBlob;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parametersJsonSchema?: unknown;
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

export interface GeminiAutomaticActivityDetection {
  disabled?: boolean;
  startOfSpeechSensitivity?: 'START_SENSITIVITY_HIGH' | 'START_SENSITIVITY_LOW';
  endOfSpeechSensitivity?: 'END_SENSITIVITY_HIGH' | 'END_SENSITIVITY_LOW';
  prefixPaddingMs?: number;
  silenceDurationMs?: number;
}

export interface GeminiRealtimeInputConfig {
  automaticActivityDetection?: GeminiAutomaticActivityDetection;
  activityHandling?: 'START_OF_ACTIVITY_INTERRUPTS' | 'NO_INTERRUPTION';
}

export interface GeminiContextWindowCompression {
  triggerTokens?: string;
  slidingWindow?: { targetTokens?: string };
}

export interface GeminiGenerationConfig {
  responseModalities?: ('AUDIO' | 'TEXT')[];
  speechConfig?: { voiceConfig?: { prebuiltVoiceConfig?: { voiceName?: string } }; languageCode?: string };
  temperature?: number;
  maxOutputTokens?: number;
}

/** The first client message of every connection; the configuration cannot change until the next connection. */
export interface GeminiSetup {
  /** `models/<name>` (Gemini API) or `projects/<p>/locations/<l>/publishers/google/models/<name>` (Vertex AI). */
  model: string;
  generationConfig?: GeminiGenerationConfig;
  systemInstruction?: GeminiContent | { parts: GeminiPart[] };
  tools?: GeminiTool[];
  realtimeInputConfig?: GeminiRealtimeInputConfig;
  /** Present: the server sends resumption handles; with `handle`, the session it names continues. */
  /** `transparent`: each `sessionResumptionUpdate` says the index of the last client message its handle holds. */
  sessionResumption?: { handle?: string; transparent?: boolean };
  contextWindowCompression?: GeminiContextWindowCompression;
  inputAudioTranscription?: Record<never, never>;
  outputAudioTranscription?: Record<never, never>;
}

/** Turns appended to the context; `turnComplete: true` starts generation. Interrupts a turn being generated. */
export interface GeminiClientContent {
  turns?: GeminiContent[];
  turnComplete?: boolean;
}

export interface GeminiRealtimeInput {
  audio?: GeminiBlob;
  text?: string;
  /** Automatic activity detection only: the microphone was turned off. */
  audioStreamEnd?: boolean;
  /** Only with automatic activity detection disabled: the user starts / stops speaking. */
  activityStart?: Record<never, never>;
  activityEnd?: Record<never, never>;
}

export interface GeminiToolResponse {
  functionResponses: GeminiFunctionResponse[];
}

/** A client message: exactly one of its fields. */
export type GeminiClientMessage =
  | { setup: GeminiSetup }
  | { clientContent: GeminiClientContent }
  | { realtimeInput: GeminiRealtimeInput }
  | { toolResponse: GeminiToolResponse };

export interface GeminiTranscription {
  text?: string;
  finished?: boolean;
}

export interface GeminiServerContent {
  modelTurn?: { role?: string; parts?: GeminiPart[] };
  /** The model has finished generating (absent on an interrupted turn). */
  generationComplete?: boolean;
  /** The turn is over: after `generationComplete` (once the model assumes playback ended) or after `interrupted`. */
  turnComplete?: boolean;
  /** The user's activity (or client content) stopped the turn being generated. */
  interrupted?: boolean;
  inputTranscription?: GeminiTranscription;
  outputTranscription?: GeminiTranscription;
}

export interface GeminiModalityTokenCount {
  modality?: 'TEXT' | 'AUDIO' | 'IMAGE' | 'VIDEO' | 'DOCUMENT' | 'MODALITY_UNSPECIFIED';
  tokenCount?: number;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  responseTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  promptTokensDetails?: GeminiModalityTokenCount[];
  responseTokensDetails?: GeminiModalityTokenCount[];
}

export interface GeminiSessionResumptionUpdate {
  newHandle?: string;
  resumable?: boolean;
  /**
   * With `sessionResumption.transparent`: the index (an int64 as a string) of the connection's last client message the
   * handle's state holds.
   */
  lastConsumedClientMessageIndex?: string;
}

/** A server message: one of its fields (`usageMetadata` may ride along with another). */
export interface GeminiServerMessage {
  setupComplete?: { sessionId?: string };
  serverContent?: GeminiServerContent;
  toolCall?: { functionCalls: GeminiFunctionCall[] };
  toolCallCancellation?: { ids: string[] };
  usageMetadata?: GeminiUsageMetadata;
  /** The server will close this connection in `timeLeft` (a duration such as `"10s"`). */
  goAway?: { timeLeft?: string };
  sessionResumptionUpdate?: GeminiSessionResumptionUpdate;
}

/** The sample rate the service takes input audio at, and the MIME type that names it. */
export const GEMINI_INPUT_SAMPLE_RATE = 16000;
export const GEMINI_INPUT_MIME_TYPE = 'audio/pcm;rate=16000';
/** The service speaks PCM16 mono at 24 kHz. */
export const GEMINI_OUTPUT_SAMPLE_RATE = 24000;
/** The formats a Gemini Live connection declares (`audioFormats`): PCM16 16 kHz in, PCM16 24 kHz out. */
export const GEMINI_AUDIO_FORMATS = {
  input: { encoding: 'pcm16', sampleRate: GEMINI_INPUT_SAMPLE_RATE },
  output: { encoding: 'pcm16', sampleRate: GEMINI_OUTPUT_SAMPLE_RATE },
} as const satisfies RealtimeConnection['audioFormats'];

/** A duration string of the wire (`"12.5s"`) in milliseconds; `undefined` when it is not one. */
export function durationMs(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^(\d+(?:\.\d+)?)s$/.exec(value);
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/** Milliseconds as a wire duration string. */
export function durationString(ms: number): string {
  return `${Math.max(0, ms) / 1000}s`;
}
