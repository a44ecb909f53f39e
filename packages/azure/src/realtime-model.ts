import {
  type Clock,
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeConnectOptions,
  type RealtimeModel,
} from '@parley/core';
import { invalidOption, optionKeys, positiveMs, resolveClockOption } from '@parley/core/internal';
import {
  type OpenAIRealtimeConnection,
  OpenAIRealtimeError,
  type OpenAIRealtimeSessionConfig,
} from '@parley/openai';
import { OpenAIRealtimeConnection as Connection } from '@parley/openai/protocol';
import {
  detectWebSocketStyle,
  type Handshake,
  type KeepaliveOptions,
  openSocket,
  type ResolvedKeepalive,
  resolveKeepalive,
  type WebSocketConstructor,
  type WebSocketStyle,
} from '@parley/transport';
import { AZURE_REALTIME_CAPABILITIES } from './capabilities.js';
import { DEFAULT_CLOSE_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS } from './constants.js';
import { fetchToken } from './credentials.js';
import {
  type AzureOpenAIConnectionOptions,
  assertDeploymentName,
  CONNECTION_OPTION_KEYS,
  type ResolvedAzureConnection,
  resolveAzureConnection,
} from './options.js';
import { azureUpgradeError } from './realtime-errors.js';
import { probeUpgradeStatus } from './upgrade-status.js';
import { realtimeURL } from './urls.js';

/** A warning the model reports instead of failing (e.g. the deprecated legacy path). */
export interface AzureWarning {
  code: 'azure_legacy_realtime_path';
  message: string;
}

/** Options of {@link AzureOpenAIRealtimeModel}. */
export interface AzureOpenAIRealtimeModelOptions extends AzureOpenAIConnectionOptions {
  /**
   * Selects the legacy preview path `/openai/realtime?api-version=…&deployment=…` and its beta protocol (flat
   * `session.update`, beta event names), with a deprecation warning: Azure retired the preview protocol on
   * 2026-04-30. Leave it out for the GA path `/openai/v1/realtime?model={deployment}`.
   */
  apiVersion?: string;
  /**
   * Puts the key in the URL (`?api-key=`) instead of the `api-key` header, for runtimes whose WebSocket cannot send
   * headers (browsers). The key is then visible to the page and to anything that logs URLs: prefer a server-side
   * relay. Only with `apiKey`.
   */
  queryAuth?: boolean;
  /** The WebSocket constructor. Default `globalThis.WebSocket` where it exists, else the `ws` package. */
  WebSocket?: WebSocketConstructor;
  /** How `WebSocket` takes headers; detected from the constructor and the runtime when left out. */
  webSocketStyle?: WebSocketStyle;
  /** GA session fields the seam does not cover, merged under every `session.update`. */
  sessionConfig?: OpenAIRealtimeSessionConfig;
  /**
   * The transcription deployment used when the session asks for input transcription without naming a model. On
   * Azure, `inputTranscription.model` is a deployment name, not an OpenAI model name. Default
   * `gpt-4o-mini-transcribe` (works only if a deployment has that name).
   */
  transcriptionDeployment?: string;
  /** Time source for the connect and close timeouts. Default the system clock. */
  clock?: Clock;
  /** How long `connect()` waits for the session to be ready. Default 30 000 ms. */
  connectTimeoutMs?: number;
  /** How long `close()` waits for the closing handshake. Default 5 000 ms. */
  closeTimeoutMs?: number;
  /** Receives warnings. Default: `process.emitWarning` (a `DeprecationWarning`), where it exists. */
  onWarning?: (warning: AzureWarning) => void;
  /**
   * Pings the service while the connection is open, as `OpenAIRealtimeModel` does: a ping unanswered within
   * `timeoutMs` ends the connection (a `RealtimeSession` reconnects). Default `{ intervalMs: 30_000, timeoutMs:
   * 10_000 }`; `false` sends none. Only a socket that can ping does (the `ws` package's).
   */
  keepalive?: KeepaliveOptions | false;
}

const MODEL_OPTIONS = optionKeys<AzureOpenAIRealtimeModelOptions>('AzureOpenAIRealtimeModelOptions', {
  ...CONNECTION_OPTION_KEYS,
  apiVersion: true,
  queryAuth: true,
  WebSocket: true,
  webSocketStyle: true,
  sessionConfig: true,
  transcriptionDeployment: true,
  clock: true,
  connectTimeoutMs: true,
  closeTimeoutMs: true,
  onWarning: true,
  keepalive: true,
});

const API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

function emitProcessWarning(warning: AzureWarning): void {
  const process = (globalThis as { process?: { emitWarning?: (m: string, o: object) => void } }).process;
  process?.emitWarning?.(warning.message, { type: 'DeprecationWarning', code: warning.code });
}

/**
 * Azure OpenAI Realtime over a WebSocket, as a Parley {@link RealtimeModel}, on `@parley/openai`'s protocol layer.
 *
 * ```ts
 * const model = new AzureOpenAIRealtimeModel({
 *   endpoint: 'https://my-resource.openai.azure.com',
 *   deployment: 'gpt-realtime',
 *   apiKey: process.env.AZURE_OPENAI_API_KEY,
 * });
 * ```
 *
 * Options are validated in the constructor: a missing endpoint, deployment or credential is a `UserError` naming
 * the option and its environment variable. A refused upgrade rejects `connect()` with an `OpenAIRealtimeError`
 * carrying the HTTP `status` (401/403: `realtime_auth_failed`; 404: `realtime_handshake_failed`).
 */
export class AzureOpenAIRealtimeModel implements RealtimeModel {
  readonly specificationVersion = REALTIME_SPECIFICATION_VERSION;
  readonly provider = 'azure-openai';
  readonly capabilities: RealtimeCapabilities = AZURE_REALTIME_CAPABILITIES;
  /** The deployment named in the URL. */
  readonly deployment: string;
  /** The WebSocket URL (without credentials). */
  readonly url: string;
  /** `ga`, or `beta` on the legacy preview path. */
  readonly dialect: 'ga' | 'beta';
  readonly #connection: ResolvedAzureConnection;
  readonly #options: AzureOpenAIRealtimeModelOptions;
  readonly #style: WebSocketStyle;
  readonly #clock: Clock;
  readonly #keepalive: ResolvedKeepalive;

  constructor(options: AzureOpenAIRealtimeModelOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw invalidOption('AzureOpenAIRealtimeModel options must be an object.');
    }
    MODEL_OPTIONS.check(options);
    this.#connection = resolveAzureConnection(options, 'AzureOpenAIRealtimeModel');
    this.#options = options;
    this.deployment = this.#connection.deployment;
    const { apiVersion } = options;
    if (apiVersion !== undefined && (typeof apiVersion !== 'string' || !API_VERSION.test(apiVersion))) {
      throw invalidOption('apiVersion must look like "2025-04-01-preview"; leave it out for the GA path.');
    }
    this.dialect = apiVersion === undefined ? 'ga' : 'beta';
    this.url = realtimeURL(this.#connection.base, this.deployment, apiVersion).toString();
    if (options.queryAuth !== undefined && typeof options.queryAuth !== 'boolean') {
      throw invalidOption('queryAuth must be true or false.');
    }
    if (options.queryAuth && this.#connection.credential.kind !== 'api-key') {
      throw invalidOption('queryAuth puts an api key in the URL; it cannot carry a tokenProvider token.');
    }
    if (options.WebSocket !== undefined && typeof options.WebSocket !== 'function') {
      throw invalidOption(
        'WebSocket must be a WebSocket constructor (e.g. globalThis.WebSocket or the ws package).',
      );
    }
    const style = options.webSocketStyle;
    if (style !== undefined && style !== 'ws' && style !== 'headers-init' && style !== 'browser') {
      throw invalidOption("webSocketStyle must be 'ws', 'headers-init' or 'browser'.");
    }
    this.#style = style ?? detectWebSocketStyle(options.WebSocket);
    if (this.#style === 'browser' && !options.queryAuth) {
      throw invalidOption(
        'A browser WebSocket cannot send the api-key or Authorization header. Connect through your server, or pass ' +
          'queryAuth: true to put the key in the URL (visible to the page).',
      );
    }
    const sessionConfig = options.sessionConfig ?? {};
    if (typeof sessionConfig !== 'object' || sessionConfig === null || Array.isArray(sessionConfig)) {
      throw invalidOption('sessionConfig must be an object of GA session fields.');
    }
    if ('type' in sessionConfig) throw invalidOption('sessionConfig must not set "type".');
    if (options.transcriptionDeployment !== undefined) {
      assertDeploymentName(options.transcriptionDeployment, 'transcriptionDeployment');
    }
    this.#clock = resolveClockOption(options.clock, invalidOption);
    this.#keepalive = resolveKeepalive(options.keepalive, MODEL_OPTIONS.owner, invalidOption);
    positiveMs(options.connectTimeoutMs, 'connectTimeoutMs', 30_000);
    positiveMs(options.closeTimeoutMs, 'closeTimeoutMs', 5_000);
    if (options.onWarning !== undefined && typeof options.onWarning !== 'function') {
      throw invalidOption('onWarning must be a function.');
    }
    if (apiVersion !== undefined) {
      (options.onWarning ?? emitProcessWarning)({
        code: 'azure_legacy_realtime_path',
        message:
          `apiVersion "${apiVersion}" selects Azure's legacy preview Realtime path and its beta protocol, which Azure ` +
          'deprecated on 2026-04-30. Leave apiVersion out to use the GA path /openai/v1/realtime.',
      });
    }
  }

  /** How the WebSocket will be opened (see `WebSocketStyle`). */
  get webSocketStyle(): WebSocketStyle {
    return this.#style;
  }

  async connect(options: RealtimeConnectOptions): Promise<OpenAIRealtimeConnection> {
    const { signal } = options;
    const model = options.config?.inputTranscription?.model;
    if (model !== undefined) assertDeploymentName(model, 'config.inputTranscription.model');
    const { credential } = this.#connection;
    const clock = this.#clock;
    return openSocket({
      signal,
      secret: () => (credential.kind === 'api-key' ? credential.key : fetchToken(credential.tokenProvider)),
      handshake: (secret) => this.#handshake(secret),
      WebSocket: this.#options.WebSocket,
      style: this.#style,
      // The constructor's message may quote the URL, which carries the key with queryAuth.
      refused: (cause) =>
        new OpenAIRealtimeError(
          'realtime_handshake_failed',
          'The WebSocket constructor refused the connection request; check the endpoint and the WebSocket option.',
          this.#options.queryAuth ? {} : { cause },
        ),
      wrap: async (socket, secret, handshake) => {
        try {
          return await Connection.open(
            socket,
            {
              clock,
              connectTimeoutMs: this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
              closeTimeoutMs: this.#options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
              keepalive: this.#keepalive,
              baseSession: this.#options.sessionConfig ?? {},
              secrets: [secret],
              dialect: this.dialect,
              ...(this.#options.transcriptionDeployment !== undefined && {
                transcriptionModel: this.#options.transcriptionDeployment,
              }),
              ...(options.rawEvents && { rawEvents: true }),
            },
            options.config ?? {},
            signal,
          );
        } catch (error) {
          const withStatus = await probeUpgradeStatus(
            error,
            new URL(handshake.url),
            handshake.headers,
            clock,
          );
          throw azureUpgradeError(withStatus, this.deployment);
        }
      },
    });
  }

  /** The URL and headers of an upgrade with `secret`: in the query with queryAuth, else in its header. */
  #handshake(secret: string): Handshake {
    const { credential } = this.#connection;
    const url = new URL(this.url);
    const headers = { ...this.#connection.headers };
    if (this.#options.queryAuth) url.searchParams.set('api-key', secret);
    else if (credential.kind === 'api-key') headers['api-key'] = secret;
    else headers.Authorization = `Bearer ${secret}`;
    return { url: url.toString(), headers, protocols: [] };
  }
}
