import type { Clock } from '@parley/core';
import { invalidOption, optionKeys, resolveClockOption } from '@parley/core/internal';
import {
  type KeepaliveOptions,
  type ResolvedKeepalive,
  resolveKeepalive,
  type WebSocketConstructor,
  type WebSocketStyle,
} from '@parley/transport';
import { GeminiLiveError } from './errors.js';

/** A token, or a function that fetches a fresh one before every connection. */
export type TokenSource = string | (() => string | Promise<string>);

/** The Vertex AI form: a project, a location and an OAuth access token (e.g. from `google-auth-library`). */
export interface GeminiVertexOptions {
  project: string;
  location: string;
  /** `Authorization: Bearer` token, or a function that returns a fresh one (called before every connection). */
  accessToken: TokenSource;
}

/** Context window compression: the service drops the oldest turns once the context reaches `triggerTokens`. */
export interface GeminiContextCompression {
  /** Context size (tokens) that starts a compression. Default the service's. */
  triggerTokens?: number;
  /** Tokens kept after a compression. Default the service's. */
  targetTokens?: number;
}

/** Options of {@link GeminiLiveModel}. */
export interface GeminiLiveModelOptions {
  /** The Live model, without `models/`. Default `gemini-live-2.5-flash-preview`. */
  model?: string;
  /** A Gemini API key. Defaults to `GEMINI_API_KEY`, then `GOOGLE_API_KEY`. Not with `ephemeralToken` or `vertex`. */
  apiKey?: string;
  /**
   * An ephemeral token (`auth_tokens/…`, minted on your server) for browsers: sent on the constrained endpoint of
   * `v1alpha`. A function is called before every connection.
   */
  ephemeralToken?: TokenSource;
  /** Connect to Vertex AI instead of the Gemini API. */
  vertex?: GeminiVertexOptions;
  /**
   * The WebSocket origin, e.g. `ws://127.0.0.1:<port>` for a simulator. Default
   * `wss://generativelanguage.googleapis.com` (Vertex AI: `wss://<location>-aiplatform.googleapis.com`).
   */
  baseUrl?: string;
  /** The API version in the path. Default `v1beta` (`v1alpha` with an ephemeral token; Vertex AI `v1beta1`). */
  apiVersion?: string;
  /** The prebuilt voice (e.g. `Puck`, `Kore`) when the session configuration names none. */
  voice?: string;
  /** Send `sessionResumption` so a `goAway` (and a new configuration) resumes the same session. Default `true`. */
  sessionResumption?: boolean;
  /** Compress the context window (lifts the session length limit). Default off. */
  contextWindowCompression?: GeminiContextCompression | boolean;
  /** Transcribe the model's audio (`transcript_delta` events). Default `true`. */
  outputTranscription?: boolean;
  temperature?: number;
  maxOutputTokens?: number;
  /** Extra upgrade headers. */
  headers?: Record<string, string>;
  /** The WebSocket constructor. Default the `ws` package on Node, else `globalThis.WebSocket`. */
  WebSocket?: WebSocketConstructor;
  /** How `WebSocket` takes headers; detected when left out. */
  webSocketStyle?: WebSocketStyle;
  /** Time source of the timeouts. Default the system clock. */
  clock?: Clock;
  /** How long `connect()` waits for `setupComplete`. Default 15 000 ms. */
  connectTimeoutMs?: number;
  /** How long `close()` waits for the closing handshake. Default 5 000 ms. */
  closeTimeoutMs?: number;
  /** Pings while open (the `ws` package's socket). Default every 30 s, answered within 10 s; `false` sends none. */
  keepalive?: KeepaliveOptions | false;
}

export type GeminiCredentials =
  | { kind: 'apiKey'; key: string }
  | { kind: 'ephemeral'; token: TokenSource }
  | { kind: 'vertex'; project: string; location: string; token: TokenSource };

export interface ResolvedGeminiOptions {
  model: string;
  credentials: GeminiCredentials;
  baseUrl: string;
  apiVersion: string;
  voice: string | undefined;
  sessionResumption: boolean;
  compression: GeminiContextCompression | undefined;
  outputTranscription: boolean;
  temperature: number | undefined;
  maxOutputTokens: number | undefined;
  headers: Record<string, string>;
  WebSocket: WebSocketConstructor | undefined;
  webSocketStyle: WebSocketStyle | undefined;
  clock: Clock;
  connectTimeoutMs: number;
  closeTimeoutMs: number;
  keepalive: ResolvedKeepalive;
}

const OPTIONS = optionKeys<GeminiLiveModelOptions>('GeminiLiveModelOptions', {
  model: true,
  apiKey: true,
  ephemeralToken: true,
  vertex: true,
  baseUrl: true,
  apiVersion: true,
  voice: true,
  sessionResumption: true,
  contextWindowCompression: true,
  outputTranscription: true,
  temperature: true,
  maxOutputTokens: true,
  headers: true,
  WebSocket: true,
  webSocketStyle: true,
  clock: true,
  connectTimeoutMs: true,
  closeTimeoutMs: true,
  keepalive: true,
});
const VERTEX_OPTIONS = optionKeys<GeminiVertexOptions>('GeminiLiveModelOptions', {
  project: true,
  location: true,
  accessToken: true,
});
const COMPRESSION_OPTIONS = optionKeys<GeminiContextCompression>('GeminiLiveModelOptions', {
  triggerTokens: true,
  targetTokens: true,
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function nonEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidOption(`${name} must be a non-empty string.`);
  return value;
}

function tokenSource(value: unknown, name: string): TokenSource {
  if (typeof value === 'function') return value as () => string | Promise<string>;
  return nonEmpty(value, name);
}

function positiveInteger(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw invalidOption(`${name} must be a positive integer.`);
  }
  return value;
}

function environmentKey(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.GEMINI_API_KEY || env?.GOOGLE_API_KEY || undefined;
}

function resolveCredentials(options: GeminiLiveModelOptions): GeminiCredentials {
  const given = [options.apiKey, options.ephemeralToken, options.vertex].filter(
    (v) => v !== undefined,
  ).length;
  if (given > 1) throw invalidOption('Pass one of apiKey, ephemeralToken and vertex, not several.');
  if (options.vertex !== undefined) {
    if (!isObject(options.vertex)) throw invalidOption('vertex must be { project, location, accessToken }.');
    VERTEX_OPTIONS.check(options.vertex, 'vertex');
    return {
      kind: 'vertex',
      project: nonEmpty(options.vertex.project, 'vertex.project'),
      location: nonEmpty(options.vertex.location, 'vertex.location'),
      token: tokenSource(options.vertex.accessToken, 'vertex.accessToken'),
    };
  }
  if (options.ephemeralToken !== undefined) {
    return { kind: 'ephemeral', token: tokenSource(options.ephemeralToken, 'ephemeralToken') };
  }
  const key = options.apiKey ?? environmentKey();
  if (key === undefined) {
    throw new GeminiLiveError(
      'gemini_missing_credentials',
      'No Gemini credentials: pass apiKey (or set GEMINI_API_KEY or GOOGLE_API_KEY), ephemeralToken (browsers), ' +
        'or vertex: { project, location, accessToken } for Vertex AI.',
    );
  }
  return { kind: 'apiKey', key: nonEmpty(key, 'apiKey') };
}

function resolveCompression(value: unknown): GeminiContextCompression | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {};
  if (!isObject(value))
    throw invalidOption('contextWindowCompression must be true, false or { triggerTokens?, targetTokens? }.');
  COMPRESSION_OPTIONS.check(value, 'contextWindowCompression');
  const triggerTokens = positiveInteger(value.triggerTokens, 'contextWindowCompression.triggerTokens');
  const targetTokens = positiveInteger(value.targetTokens, 'contextWindowCompression.targetTokens');
  if (triggerTokens !== undefined && targetTokens !== undefined && targetTokens >= triggerTokens) {
    throw invalidOption('contextWindowCompression.targetTokens must be below triggerTokens.');
  }
  return {
    ...(triggerTokens !== undefined && { triggerTokens }),
    ...(targetTokens !== undefined && { targetTokens }),
  };
}

function resolveBaseUrl(value: unknown, credentials: GeminiCredentials): string {
  const fallback =
    credentials.kind === 'vertex'
      ? `wss://${credentials.location}-aiplatform.googleapis.com`
      : 'wss://generativelanguage.googleapis.com';
  if (value === undefined) return fallback;
  let url: URL;
  try {
    url = new URL(nonEmpty(value, 'baseUrl'));
  } catch {
    throw invalidOption('baseUrl is not a valid URL; expected e.g. wss://generativelanguage.googleapis.com.');
  }
  if (url.protocol !== 'wss:' && url.protocol !== 'ws:') {
    throw invalidOption(`baseUrl must be a ws: or wss: URL (got ${url.protocol}).`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** Validates {@link GeminiLiveModelOptions} before any connection: a `UserError` (`invalid_option`) says what to set. */
export function resolveGeminiOptions(options: GeminiLiveModelOptions = {}): ResolvedGeminiOptions {
  if (!isObject(options as unknown)) throw invalidOption('GeminiLiveModel options must be an object.');
  OPTIONS.check(options);
  const credentials = resolveCredentials(options);
  const model = nonEmpty(options.model ?? 'gemini-live-2.5-flash-preview', 'model');
  if (model.startsWith('models/'))
    throw invalidOption(`model is the name without "models/": "${model.slice(7)}".`);
  const apiVersion =
    options.apiVersion === undefined
      ? credentials.kind === 'vertex'
        ? 'v1beta1'
        : credentials.kind === 'ephemeral'
          ? 'v1alpha'
          : 'v1beta'
      : nonEmpty(options.apiVersion, 'apiVersion');
  if (options.voice !== undefined) nonEmpty(options.voice, 'voice');
  for (const flag of ['sessionResumption', 'outputTranscription'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean')
      throw invalidOption(`${flag} must be a boolean.`);
  }
  if (
    options.temperature !== undefined &&
    (typeof options.temperature !== 'number' || !(options.temperature >= 0))
  ) {
    throw invalidOption('temperature must be a number ≥ 0.');
  }
  if (options.headers !== undefined && !isObject(options.headers))
    throw invalidOption('headers must be an object of strings.');
  if (options.WebSocket !== undefined && typeof options.WebSocket !== 'function') {
    throw invalidOption('WebSocket must be a WebSocket constructor.');
  }
  if (
    options.webSocketStyle !== undefined &&
    !['ws', 'headers-init', 'browser'].includes(options.webSocketStyle)
  ) {
    throw invalidOption("webSocketStyle must be 'ws', 'headers-init' or 'browser'.");
  }
  return {
    model,
    credentials,
    baseUrl: resolveBaseUrl(options.baseUrl, credentials),
    apiVersion,
    voice: options.voice,
    sessionResumption: options.sessionResumption ?? true,
    compression: resolveCompression(options.contextWindowCompression),
    outputTranscription: options.outputTranscription ?? true,
    temperature: options.temperature,
    maxOutputTokens: positiveInteger(options.maxOutputTokens, 'maxOutputTokens'),
    headers: (options.headers as Record<string, string> | undefined) ?? {},
    WebSocket: options.WebSocket,
    webSocketStyle: options.webSocketStyle,
    clock: resolveClockOption(options.clock, invalidOption),
    connectTimeoutMs: positiveInteger(options.connectTimeoutMs, 'connectTimeoutMs') ?? 15_000,
    closeTimeoutMs: positiveInteger(options.closeTimeoutMs, 'closeTimeoutMs') ?? 5_000,
    keepalive: resolveKeepalive(options.keepalive, OPTIONS.owner, invalidOption),
  };
}
