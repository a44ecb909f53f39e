import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type Clock, systemClock } from '@parley/core';
import type { WireSession } from '@parley/openai/wire';
import { deepMerge } from '@parley/openai/wire';
import { WebSocketServer } from 'ws';
import { IdGenerator } from '../shared/ids.js';
import { SIMULATOR_OPTIONS, STRICTNESS_OPTIONS } from '../shared/option-keys.js';
import { resolvePace, type SimulatorPacing } from '../shared/pace.js';
import {
  admitUpgrade,
  closeSimulatorServer,
  listenOnLoopback,
  refuseUpgrade,
  type UpgradeRecord,
} from '../shared/sim-server.js';
import { type BrainResponse, echoBrain, type RealtimeBrain } from './brain.js';
import type { SimulatorDialect } from './sim-beta.js';
import {
  deliverIncomingSipCall,
  handleCallRequest,
  type IncomingSipCallOptions,
  type IncomingSipCallResult,
} from './sim-calls.js';
import { mintClientSecret, type SimulatorClientSecret } from './sim-client-secrets.js';
import {
  type SimulatorCall,
  SimulatorConnection,
  type SimulatorSocket,
  type Transcriber,
} from './sim-connection.js';
import { SimulatorConversation } from './sim-conversation.js';
import { allowBrowserCall } from './sim-cors.js';
import type { SimulatedMcpServer } from './sim-mcp.js';
import { type RecordedClientEvent, SimulatorRecords } from './sim-records.js';
import { defaultSession, effectiveSession } from './sim-session.js';
import type { WebRTCCallPeer } from './sim-webrtc-front.js';

/** Which credentials and URL forms the simulator accepts at the HTTP upgrade. */
export type SimulatorAuth =
  /** Anything goes (no credentials needed); OpenAI URL form. */
  | { kind: 'none' }
  /**
   * OpenAI: `/v1/realtime?model=…` with `Authorization: Bearer <key>` or the `openai-insecure-api-key.<key>`
   * subprotocol. With `apiKeys`, only those keys are accepted; without, any non-empty key.
   */
  | { kind: 'openai'; apiKeys?: readonly string[] }
  /**
   * Azure OpenAI: `/openai/v1/realtime?model=<deployment>` (GA) or
   * `/openai/realtime?api-version=…&deployment=<deployment>` (the legacy preview form, which speaks the beta
   * dialect: flat session, beta event names), with the `api-key` header (or `api-key` query parameter) or
   * `Authorization: Bearer <Entra token>`.
   */
  | { kind: 'azure'; apiKeys?: readonly string[]; bearerTokens?: readonly string[] };

/** Options of {@link startRealtimeSimulator}. */
export interface RealtimeSimulatorOptions {
  /** Default 0 (a free port). The server listens on 127.0.0.1 only. */
  port?: number;
  /** What the model says or calls. Default {@link echoBrain}. */
  brain?: RealtimeBrain;
  /** Default `{ kind: 'openai' }` (any non-empty key). */
  auth?: SimulatorAuth;
  /** Session limit; at the limit: `session_expired`, then close 1001. Default 60 minutes. */
  sessionLimitMs?: number;
  /**
   * Time source for response pacing and the session limit. Default the system clock. Tests pass a
   * `FastForwardClock` (time jumps whenever the process is idle) or a `ManualClock` (time moves when told).
   */
  clock?: Clock;
  /**
   * How fast responses stream. Default paced (`DEFAULT_PACE`: first output after 500 ms, generation 5× faster
   * than real time), as the service does; `'instant'` streams each response to `response.done` at once.
   */
  pace?: SimulatorPacing;
  /** Length of synthesized assistant audio per character of text. Default 50 ms. */
  msPerChar?: number;
  /** Size of each `response.output_audio.delta`. Default 100 ms. */
  chunkMs?: number;
  /** Transcribes committed user audio; default: the text embedded by `speechAudio` (else ''). */
  transcribe?: Transcriber;
  /**
   * Called for each accepted connection before `session.created` is sent. Return `'defer'` to send nothing yet
   * (the test calls `connection.start()` later, or closes the connection) — e.g. to test connect timeouts.
   */
  onConnection?: (connection: SimulatorConnection) => 'defer' | undefined;
  /**
   * GA session fields merged into the default session of every connection, like the session configuration bound
   * to an ephemeral key (e.g. `{ audio: { input: { transcription: { model: 'whisper-1' } } } }`).
   */
  session?: Partial<WireSession>;
  /**
   * Refusals the protocol reference marks unconfirmed (`[?]`), each off by default so the simulator is stricter
   * than the service only where the reference says so.
   */
  strict?: SimulatorStrictness;
  /**
   * How many ended connections the simulator remembers (in `connections`, with their client events and upgrade
   * requests); older ones are forgotten. Default: all (a test reads them after the fact); a long-running simulator
   * (`parley simulator`) keeps a few.
   */
  keepEndedConnections?: number;
  /**
   * The MCP servers the simulated service calls for `mcp` tools, by `server_url`: the session lists each one's tools
   * when its tools name it, and the model's hosted MCP calls (a brain's `mcp_call`) run against it, after an
   * `mcp_approval_request` where `require_approval` asks for one. A URL not listed here fails its listing.
   */
  mcpServers?: Readonly<Record<string, SimulatedMcpServer>>;
  /**
   * Per connection: when more than this many bytes sent are waiting for the client to take them (a client that
   * stops reading), the simulator stops generating for it and drops it with close code 1008. Default 16 MiB.
   */
  maxBufferedBytes?: number;
}

/** Unconfirmed refusals of {@link RealtimeSimulatorOptions.strict}. */
export interface SimulatorStrictness {
  /**
   * Refuse a `session.update` naming a model other than the URL's (`invalid_value`, param `session.model`).
   * Default `false`: the update applies and the session keeps the URL's model.
   */
  modelChange?: boolean;
}

/** An error the simulator gives a `response.create` instead of starting the response. */
export interface SimulatorRefusal {
  code: string | null;
  message: string;
  /** `error.type`; default `invalid_request_error`. */
  type?: string;
  param?: string | null;
  /**
   * Whether the error carries the refused request's `event_id` (default `true`, as the service does: `null` only
   * when the request carried none). `false` answers with `event_id: null` whatever the request carried, for testing
   * a client's fallback when a refusal names no request.
   */
  echoEventId?: boolean;
}

export type { RecordedClientEvent } from './sim-records.js';

/** A running simulator. */
export interface RealtimeSimulator {
  /** The WebSocket endpoint without query, e.g. `ws://127.0.0.1:1234/v1/realtime` (Azure: `/openai/v1/realtime`). */
  readonly url: string;
  readonly port: number;
  /** Every accepted connection, in order. */
  readonly connections: readonly SimulatorConnection[];
  /** Every client event of every connection, in arrival order. */
  readonly clientEvents: readonly RecordedClientEvent[];
  /** Every upgrade request, accepted or refused. */
  readonly upgrades: readonly UpgradeRecord[];
  /** WebSocket connections still open. */
  readonly openConnections: number;
  /** TCP sockets still open (including refused upgrades not yet torn down). */
  readonly openSockets: number;
  /** The brain used for responses not covered by {@link RealtimeSimulator.script}. */
  brain: RealtimeBrain;
  /**
   * Creates a simulated existing call (as a WebRTC or SIP call would be) and returns its id (`rtc_…`). Connections
   * to `?call_id=<id>` attach to it: they share its session and conversation, which outlive each connection. An
   * unknown id is refused at the upgrade with 404.
   */
  createCall(options?: { model?: string; session?: Partial<WireSession> }): string;
  /**
   * A caller dials in over SIP: creates the call (ringing; its audio on a simulated phone line, which the service plays)
   * and delivers the signed `realtime.call.incoming` webhook to `webhookUrl`. The app answers on the call control
   * endpoints (`POST /v1/realtime/calls/{id}/accept|reject|refer|hangup` on this simulator's HTTP address) and attaches
   * its sideband with `?call_id=`.
   */
  incomingSipCall(options: IncomingSipCallOptions): Promise<IncomingSipCallResult>;
  /** A WebRTC or SIP call's state and the control requests it got; `undefined` for an unknown id. */
  call(callId: string): Readonly<SimulatorCall> | undefined;
  /** The HTTP root of the call endpoints, e.g. `http://127.0.0.1:1234/v1` (`baseURL` of the OpenAI clients). */
  readonly httpBaseURL: string;
  /**
   * The ephemeral keys minted at `POST /v1/realtime/client_secrets` (`createClientSecret`), in order. Each is accepted
   * as a credential (also when `auth.apiKeys` lists others), and the session fields bound to it apply to the sessions
   * it opens. Expiry is not enforced.
   */
  readonly clientSecrets: readonly SimulatorClientSecret[];
  /** Queues responses used, in order, by the next responses (any connection) before falling back to `brain`. */
  script(...responses: (BrainResponse | RealtimeBrain)[]): void;
  /**
   * The next `response.create` (any connection) is refused with this error, echoing its `event_id`. `type` defaults
   * to `invalid_request_error`; `code` may be `null`, as some of the service's errors have none.
   */
  refuseNextResponse(error: SimulatorRefusal): void;
  /** Calls `listener` with every client event as it arrives; returns the function that unsubscribes. */
  onClientEvent(listener: (event: RecordedClientEvent) => void): () => void;
  /** Resolves with the `index`-th connection (0-based), once it exists. */
  waitForConnection(index?: number): Promise<SimulatorConnection>;
  /** Resolves once no WebSocket and no TCP socket is open. */
  waitForIdle(): Promise<void>;
  /** Closes every connection (1001) and the server. Idempotent. */
  close(): Promise<void>;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** What an upgrade URL names: exactly one of a model, the transcription intent, or an existing call. */
interface Route {
  model: string;
  /** The legacy Azure path speaks the beta (preview) dialect. */
  dialect: SimulatorDialect;
  intent?: 'transcription';
  callId?: string;
}

function target(url: URL, missing: string): Route | { status: number; message: string } {
  const model = url.searchParams.get('model');
  const intent = url.searchParams.get('intent');
  const callId = url.searchParams.get('call_id');
  const named = [model, intent, callId].filter((value) => value !== null && value !== '');
  if (named.length === 0) return { status: 400, message: missing };
  if (named.length > 1) {
    return { status: 400, message: "Pass exactly one of 'model', 'intent' or 'call_id'." };
  }
  if (intent) {
    return intent === 'transcription'
      ? { model: '', dialect: 'ga', intent: 'transcription' }
      : { status: 400, message: `Invalid value: '${intent}'. Supported values are: 'transcription'.` };
  }
  if (callId) return { model: '', dialect: 'ga', callId };
  return { model: model as string, dialect: 'ga' };
}

function route(auth: SimulatorAuth, url: URL): Route | { status: number; message: string } {
  const path = url.pathname.replace(/\/+$/, '');
  if (auth.kind === 'azure') {
    if (path === '/openai/v1/realtime') {
      if (url.searchParams.has('api-version')) {
        return { status: 400, message: 'api-version is not supported on the /openai/v1 path.' };
      }
      return target(url, "Missing required query parameter 'model'.");
    }
    if (path === '/openai/realtime') {
      const deployment = url.searchParams.get('deployment');
      if (!url.searchParams.get('api-version')) return { status: 400, message: "Missing 'api-version'." };
      return deployment
        ? { model: deployment, dialect: 'beta' }
        : { status: 400, message: "Missing 'deployment'." };
    }
    return { status: 404, message: 'Resource not found' };
  }
  if (path !== '/v1/realtime') return { status: 404, message: 'Not found' };
  return target(url, "Missing required parameter: 'model'.");
}

function offeredProtocols(request: IncomingMessage): string[] {
  const header = firstHeader(request.headers['sec-websocket-protocol']);
  return header ? header.split(',').map((p) => p.trim()) : [];
}

function bearerOf(request: IncomingMessage): string | undefined {
  return /^Bearer (.+)$/.exec(firstHeader(request.headers.authorization) ?? '')?.[1];
}

/** The OpenAI key a request carries: a bearer token, or a browser WebSocket's `openai-insecure-api-key.` subprotocol. */
function openAIKeyOf(request: IncomingMessage): string | undefined {
  const fromProtocol = offeredProtocols(request)
    .find((p) => p.startsWith('openai-insecure-api-key.'))
    ?.slice('openai-insecure-api-key.'.length);
  return bearerOf(request) ?? fromProtocol;
}

function authorized(
  auth: SimulatorAuth,
  request: IncomingMessage,
  url: URL,
  minted: ReadonlyMap<string, SimulatorClientSecret>,
): boolean {
  if (auth.kind === 'none') return true;
  const bearer = bearerOf(request);
  if (auth.kind === 'openai') {
    const key = openAIKeyOf(request);
    if (!key) return false;
    return auth.apiKeys === undefined || auth.apiKeys.includes(key) || minted.has(key);
  }
  const apiKey = firstHeader(request.headers['api-key']) ?? url.searchParams.get('api-key') ?? undefined;
  if (apiKey !== undefined) return auth.apiKeys === undefined || auth.apiKeys.includes(apiKey);
  if (bearer !== undefined) return auth.bearerTokens === undefined || auth.bearerTokens.includes(bearer);
  return false;
}

/** Default {@link RealtimeSimulatorOptions.maxBufferedBytes}: 16 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** An optional integer option of at least `min`. */
function count(name: string, value: number | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(`${name} must be an integer of at least ${min}; got ${String(value)}.`);
  }
  return value;
}

function resolveStrictness(strict: SimulatorStrictness | undefined): SimulatorStrictness {
  if (strict === undefined) return {};
  if (typeof strict !== 'object' || strict === null) {
    throw new TypeError('strict must be an object, e.g. { modelChange: true }.');
  }
  STRICTNESS_OPTIONS.check(strict, 'strict');
  for (const [key, value] of Object.entries(strict)) {
    if (value !== undefined && typeof value !== 'boolean')
      throw new TypeError(`strict.${key} must be a boolean.`);
  }
  return { ...strict };
}

/**
 * Starts a WebSocket server on 127.0.0.1 that behaves like the OpenAI Realtime service (GA protocol): see
 * `docs/providers/openai.md` for what it implements. Close it with `close()`.
 */
export async function startRealtimeSimulator(
  options: RealtimeSimulatorOptions = {},
): Promise<RealtimeSimulator> {
  SIMULATOR_OPTIONS.check(options);
  const strict = resolveStrictness(options.strict);
  const maxBufferedBytes =
    count('maxBufferedBytes', options.maxBufferedBytes, 1) ?? DEFAULT_MAX_BUFFERED_BYTES;
  const keepEndedConnections = count('keepEndedConnections', options.keepEndedConnections, 0);
  const auth = options.auth ?? { kind: 'openai' };
  const clock = options.clock ?? systemClock;
  const pace = resolvePace(options.pace);
  const sessionLimitMs = options.sessionLimitMs ?? 60 * 60_000;
  const msPerChar = options.msPerChar ?? 50;
  const chunkMs = options.chunkMs ?? 100;
  const transcribe: Transcriber = options.transcribe ?? ((_audio, info) => info.heard);
  const ids = new IdGenerator();
  const records = new SimulatorRecords(keepEndedConnections ?? Number.POSITIVE_INFINITY);
  const { connections, clientEvents, upgrades } = records;
  const sockets = new Set<Socket>();
  const scripted: (BrainResponse | RealtimeBrain)[] = [];
  const refusals: SimulatorRefusal[] = [];
  const calls = new Map<string, SimulatorCall>();
  const minted = new Map<string, SimulatorClientSecret>();
  const isAuthorized = (request: IncomingMessage, url: URL) => authorized(auth, request, url, minted);
  /** The session fields bound to the ephemeral key a request carries, if the simulator minted it. */
  const boundSession = (request: IncomingMessage): Partial<WireSession> | undefined => {
    const key = openAIKeyOf(request);
    return key === undefined ? undefined : minted.get(key)?.session;
  };
  let clientEventListeners: ((event: RecordedClientEvent) => void)[] = [];
  let brain = options.brain ?? echoBrain;
  let openConnections = 0;
  let closing: Promise<void> | undefined;
  let idleWaiters: (() => void)[] = [];

  const checkIdle = () => {
    if (openConnections > 0 || sockets.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const respond: RealtimeBrain = (turn) => {
    const next = scripted.shift();
    if (next === undefined) return brain(turn);
    return typeof next === 'function' ? (next as RealtimeBrain)(turn) : next;
  };

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('realtime') ? 'realtime' : false),
  });
  // A plain HTTP request to the endpoint is checked like an upgrade (path, then credentials), as the service's
  // gateway does; clients whose WebSocket hides the upgrade's status learn it this way.
  const basePath = auth.kind === 'azure' ? '/openai/v1/realtime' : '/v1/realtime';
  const peers = new Set<WebRTCCallPeer>();
  const newCall = (callOptions: {
    model?: string;
    session?: Partial<WireSession> | undefined;
    line?: 'webrtc' | 'sip';
  }): SimulatorCall => {
    const id = `rtc_SIM${String(calls.size + 1).padStart(14, '0')}`;
    const base = defaultSession(ids.next('sess'), callOptions.model ?? 'gpt-realtime', 0);
    const session = effectiveSession(
      callOptions.session ? (deepMerge(base, callOptions.session) as WireSession) : base,
    );
    session.expires_at = Math.floor(Date.now() / 1000 + sessionLimitMs / 1000);
    const call: SimulatorCall = {
      id,
      session,
      conversation: new SimulatorConversation(),
      ...(callOptions.line && { line: callOptions.line }),
    };
    calls.set(id, call);
    return call;
  };
  const openConnection = (opened: {
    socket: SimulatorSocket;
    path: string;
    headers: Readonly<Record<string, string | string[] | undefined>>;
    protocol: string;
    model?: string;
    call?: SimulatorCall;
    transcription?: boolean;
    dialect?: SimulatorDialect;
    servicePlayback?: { sink?: (pcm24: Uint8Array) => void };
    /** The session bound to the ephemeral key the connection was opened with. */
    boundSession?: Partial<WireSession> | undefined;
  }): SimulatorConnection => {
    openConnections++;
    const { call } = opened;
    const connection = new SimulatorConnection({
      id: records.nextId(),
      socket: opened.socket,
      path: opened.path,
      headers: opened.headers,
      protocol: opened.protocol,
      model: call ? (call.session.model ?? '') : (opened.model ?? ''),
      target: call
        ? { kind: 'call', call }
        : opened.transcription
          ? { kind: 'transcription' }
          : { kind: 'model' },
      ids,
      clock,
      sessionLimitMs,
      brain: respond,
      msPerChar,
      chunkMs,
      pace,
      transcribe,
      initialSession: opened.boundSession
        ? (deepMerge(options.session ?? {}, opened.boundSession) as Partial<WireSession>)
        : options.session,
      mcpServers: options.mcpServers,
      dialect: opened.dialect ?? 'ga',
      strict,
      maxBufferedBytes,
      ...(opened.servicePlayback && { servicePlayback: opened.servicePlayback }),
      takeRefusal: () => refusals.shift(),
      onClientEvent: (c, event) => {
        const record = { connectionId: c.id, event };
        clientEvents.push(record);
        for (const listener of clientEventListeners) listener(record);
      },
      onClose: () => {
        openConnections--;
        records.ended();
        checkIdle();
      },
    });
    records.added(connection);
    return connection;
  };
  const callRoutes = {
    calls,
    newCall,
    authorized: isAuthorized,
    boundSession,
    endCall: (call: SimulatorCall) => {
      for (const connection of connections) {
        if (connection.callId === call.id && connection.isOpen) connection.close(1000, 'call ended');
      }
    },
    attachWebRTC: async (call: SimulatorCall, front: WebRTCCallPeer, request: IncomingMessage) => {
      peers.add(front);
      const socket = await front.events;
      const connection = openConnection({
        socket,
        path: `${basePath}/calls`,
        headers: request.headers,
        protocol: '',
        call,
        servicePlayback: { sink: front.sink },
      });
      front.onAudio((pcm24) => connection.appendMediaAudio(pcm24));
      void connection.closed.then(() => {
        peers.delete(front);
        return front.close();
      });
      connection.start();
    },
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '');
    if (path === `${basePath}/calls` || path.startsWith(`${basePath}/calls/`)) {
      if (allowBrowserCall(req, res)) return;
    }
    if (req.method === 'POST' && path === `${basePath}/client_secrets` && auth.kind === 'openai') {
      void mintClientSecret(req, res, isAuthorized(req, url) ? bearerOf(req) : undefined).then(
        (secret) => {
          if (secret) minted.set(secret.value, secret);
        },
        () => {
          // The request broke off while its body was read.
          if (!res.headersSent) res.writeHead(500);
          res.end();
        },
      );
      return;
    }
    void handleCallRequest(callRoutes, req, res, url, basePath)
      .then((handled) => {
        if (!handled) answerPlainRequest(req, res, url);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  const answerPlainRequest = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const target = route(auth, url);
    const status = 'status' in target ? target.status : isAuthorized(req, url) ? 426 : 401;
    const message =
      'status' in target ? target.message : status === 401 ? 'Unauthorized' : 'Upgrade Required';
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: { message } }));
  };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      checkIdle();
    });
  });

  server.on('upgrade', (request, socket: Socket, head) => {
    const admitted = admitUpgrade(request, socket, upgrades, closing !== undefined);
    records.trimUpgrades();
    if (!admitted) return;
    const { url, record } = admitted;
    const target = route(auth, url);
    if ('status' in target) {
      refuseUpgrade(socket, record, target.status, {
        error: { message: target.message, type: 'invalid_request_error', code: null },
      });
      return;
    }
    const call = target.callId === undefined ? undefined : calls.get(target.callId);
    if (target.callId !== undefined && !call) {
      refuseUpgrade(socket, record, 404, {
        error: {
          message: `No call found with id '${target.callId}'.`,
          type: 'invalid_request_error',
          code: null,
        },
      });
      return;
    }
    if (!isAuthorized(request, url)) {
      refuseUpgrade(socket, record, 401, {
        error: {
          message:
            'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      });
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const connection = openConnection({
        socket: ws,
        path: record.path,
        headers: record.headers,
        protocol: ws.protocol,
        model: target.model,
        boundSession: boundSession(request),
        ...(call ? { call } : target.intent ? { transcription: true } : {}),
        dialect: target.dialect,
        // A sideband on a phone call: the service plays the audio on the line.
        ...(call?.line === 'sip' && { servicePlayback: {} }),
      });
      if (firstHeader(request.headers['openai-beta'])) {
        connection.send({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            code: 'beta_api_shape_disabled',
            message: 'The beta Realtime API shape is no longer supported. Use the GA interface.',
            param: null,
            event_id: null,
          },
        });
        connection.close(4000, 'beta_api_shape_disabled');
        return;
      }
      if (options.onConnection?.(connection) === 'defer') return;
      connection.start();
    });
  });

  const port = await listenOnLoopback(server, options.port);

  return {
    url: `ws://127.0.0.1:${port}${basePath}`,
    port,
    connections,
    clientEvents,
    upgrades,
    get openConnections() {
      return openConnections;
    },
    get openSockets() {
      return sockets.size;
    },
    get brain() {
      return brain;
    },
    set brain(value: RealtimeBrain) {
      brain = value;
    },
    get clientSecrets() {
      return [...minted.values()];
    },
    get httpBaseURL() {
      return `http://127.0.0.1:${port}${basePath.slice(0, -'/realtime'.length)}`;
    },
    createCall(callOptions = {}) {
      return newCall(callOptions).id;
    },
    incomingSipCall(sipOptions) {
      return deliverIncomingSipCall({ newCall }, sipOptions);
    },
    call(callId) {
      return calls.get(callId);
    },
    script(...responses) {
      scripted.push(...responses);
    },
    refuseNextResponse(error) {
      refusals.push({ ...error });
    },
    onClientEvent(listener) {
      clientEventListeners = [...clientEventListeners, listener];
      return () => {
        clientEventListeners = clientEventListeners.filter((l) => l !== listener);
      };
    },
    waitForConnection(index = 0) {
      return records.waitFor(index);
    },
    waitForIdle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        checkIdle();
      });
    },
    close() {
      closing ??= closeSimulatorServer(server, wss, connections).then(async () => {
        await Promise.all([...peers].map((peer) => peer.close()));
      });
      return closing;
    },
  };
}
