import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { type Clock, systemClock } from '@parley/core';
import type { LiveServerEvent } from '@parley/openai/wire';
import { isPlainObject } from '@parley/openai/wire';
import { type WebSocket, WebSocketServer } from 'ws';
import { IdGenerator } from '../shared/ids.js';
import { inviteHeaders } from '../shared/incoming-sip-call.js';
import { LIVE_SIMULATOR_OPTIONS } from '../shared/option-keys.js';
import { SimulatorServiceError } from '../shared/sim-errors.js';
import {
  admitUpgrade,
  closeSimulatorServer,
  listenOnLoopback,
  refuseUpgrade,
  type UpgradeRecord,
} from '../shared/sim-server.js';
import { type LiveBrain, type LiveReaction, liveEchoBrain } from './live-brain.js';
import { resolveSession, validateStart } from './live-config.js';
import type { LiveTranscriber } from './live-listener.js';
import { type LiveSessionTuning, LiveSimulatorSession } from './live-sim-session.js';
import { LiveSimulatorSocket } from './live-sim-socket.js';
import {
  deliverLiveIncomingCall,
  handleLiveCallRequest,
  type LiveIncomingSipCallOptions,
  type LiveIncomingSipCallResult,
  LivePhoneLine,
  type LiveSimulatorCall,
} from './live-sip.js';

/** Options of {@link startLiveSimulator}. */
export interface LiveSimulatorOptions {
  /** Default 0 (a free port). The server listens on 127.0.0.1 only. */
  port?: number;
  /** Accepted `Authorization: Bearer` keys (and, with `azure`, `api-key` header keys); default any non-empty key. */
  apiKeys?: readonly string[];
  /**
   * The Azure Foundry form: the endpoints live under `/openai/v1/live/sessions` and the key may come in the `api-key`
   * header as well as `Authorization: Bearer` (an Entra token).
   */
  azure?: boolean;
  /** What the voice model does after each user utterance. Default {@link liveEchoBrain}. */
  brain?: LiveBrain;
  /** Wall-clock time source (startup close, `session.updated` latency, expiry). Default the system clock. */
  clock?: Clock;
  /** Session lifetime on the wall clock; at the limit: `session.closed {reason: "expired"}`. Default 60 minutes. */
  sessionLimitMs?: number;
  /** Length of the model's speech per character. Default 50 ms. */
  msPerChar?: number;
  /** Timeline delay from a context append to its injection (its `…appended` ack). Default 600 ms. */
  appendLatencyMs?: number;
  /** Silence that ends a user utterance (the model's end-pointing). Default 500 ms. */
  endOfUtteranceMs?: number;
  /**
   * Interim transcription: after this much of an utterance's speech, its first word goes out as a
   * `session.input_transcript.delta` while the user still speaks (the rest when the utterance ends), as the service
   * streams fragments on ~200 ms frames. It is the only sign a client gets that the user talks over the model.
   * Default: none (the whole utterance is transcribed when it ends).
   */
  interimTranscriptMs?: number;
  /** Timeline interval of `session.usage.updated`. Default 15 s. */
  usageIntervalMs?: number;
  /** What the model says to acknowledge a delegation. Default "One moment, let me check." */
  acknowledgement?: string;
  /** Wall-clock delay before `session.updated`. Default 0. */
  updateLatencyMs?: number;
  /** Wall-clock delay between a startup error and the socket closing. Default 2000 ms. */
  startupCloseDelayMs?: number;
  /** Transcribes user audio; default the text embedded by `speechAudio`. */
  transcribe?: LiveTranscriber;
}

/** One upgrade request the simulator saw, accepted or not. */
export type LiveUpgradeRecord = UpgradeRecord;

/** A client event with the socket it arrived on. */
export interface LiveRecordedClientEvent {
  socket: 'primary' | 'sideband';
  sessionId: string | undefined;
  event: unknown;
}

/** A running GPT-Live simulator. */
export interface LiveSimulator {
  /** The primary WebSocket endpoint, `ws://127.0.0.1:<port>/v1/live/sessions` (Azure: `/openai/v1/live/sessions`). */
  readonly url: string;
  /** The API base for HTTP-style clients (the official `openai` client's `baseURL`): `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every started session, in order. */
  readonly sessions: readonly LiveSimulatorSession[];
  readonly clientEvents: readonly LiveRecordedClientEvent[];
  readonly upgrades: readonly LiveUpgradeRecord[];
  /** The brain of utterances not covered by {@link LiveSimulator.script}. */
  brain: LiveBrain;
  /** Queues reactions used, in order, by the next utterances (any session) before falling back to `brain`. */
  script(...reactions: (LiveReaction | string | readonly LiveReaction[])[]): void;
  /** Calls `listener` after every client event is recorded; returns its removal. */
  onClientEvent(listener: (event: LiveRecordedClientEvent) => void): () => void;
  /**
   * A caller dials in over SIP: the call is created (ringing; its session id `live_…`) and the signed webhook(s) are
   * delivered to the app. `accept` (`POST /v1/live/sessions/{id}/accept` at {@link LiveSimulator.baseURL}) starts
   * its session, the phone line its primary; the app observes and controls it on a sideband (`/attach`).
   */
  incomingSipCall(options: LiveIncomingSipCallOptions): Promise<LiveIncomingSipCallResult>;
  /** A SIP call by its session id: its state, control requests, phone line and session. */
  call(sessionId: string): LiveSimulatorCall | undefined;
  /** Resolves with the `index`-th started session (0-based). */
  waitForSession(index?: number): Promise<LiveSimulatorSession>;
  /** Closes every socket and the server. Idempotent. */
  close(): Promise<void>;
}

/** The service's error body for a refused upgrade. */
function refusal(message: string, code: string | null = null) {
  return { error: { message, type: 'invalid_request_error', code } };
}

type Route =
  | { kind: 'primary' }
  | { kind: 'sideband'; sessionId: string }
  | { status: number; message: string };

function route(url: URL, prefix: string): Route {
  const full = url.pathname.replace(/\/+$/, '');
  if (!full.startsWith(`${prefix}/v1/live/sessions`)) return { status: 404, message: 'Not found' };
  const path = full.slice(prefix.length);
  if (path === '/v1/live/sessions') {
    return url.search
      ? { status: 400, message: 'The live sessions endpoint takes no query parameters.' }
      : { kind: 'primary' };
  }
  const attach = /^\/v1\/live\/sessions\/([^/]+)\/attach$/.exec(path);
  if (attach) {
    const unknown = [...url.searchParams.keys()].filter((k) => k !== 'graceful_close');
    if (unknown.length > 0) return { status: 400, message: `Unknown query parameter '${unknown[0]}'.` };
    return { kind: 'sideband', sessionId: decodeURIComponent(attach[1] as string) };
  }
  return { status: 404, message: 'Not found' };
}

function parse(data: unknown, isBinary: boolean): unknown {
  if (isBinary) return undefined;
  try {
    return JSON.parse(String(data));
  } catch {
    return undefined;
  }
}

/**
 * Starts a WebSocket server on 127.0.0.1 that behaves like OpenAI GPT-Live (`/v1/live/sessions`, see
 * `docs/providers/openai-live.md`): a timeline driven by input audio, a continuous output track, transcripts, context
 * appends, client and Responses delegation, mute, fixtures, usage, close and expiry, and sideband attach. Close it
 * with `close()`.
 */
export async function startLiveSimulator(options: LiveSimulatorOptions = {}): Promise<LiveSimulator> {
  LIVE_SIMULATOR_OPTIONS.check(options);
  const clock = options.clock ?? systemClock;
  const tuning: LiveSessionTuning = {
    msPerChar: options.msPerChar ?? 50,
    appendLatencyMs: options.appendLatencyMs ?? 600,
    endOfUtteranceMs: options.endOfUtteranceMs ?? 500,
    usageIntervalMs: options.usageIntervalMs ?? 15_000,
    speechThreshold: 0.02,
    acknowledgement: options.acknowledgement ?? 'One moment, let me check.',
    interimTranscriptMs: options.interimTranscriptMs,
    updateLatencyMs: options.updateLatencyMs ?? 0,
    transcribe: options.transcribe ?? ((_audio, info) => info.heard),
  };
  const startupCloseDelayMs = options.startupCloseDelayMs ?? 2000;
  const prefix = options.azure ? '/openai' : '';
  const lifetimeMs = options.sessionLimitMs ?? 60 * 60_000;
  const ids = new IdGenerator();
  const sessions: LiveSimulatorSession[] = [];
  const live = new Map<string, LiveSimulatorSession>();
  const clientEvents: LiveRecordedClientEvent[] = [];
  const clientEventListeners = new Set<(event: LiveRecordedClientEvent) => void>();
  const upgrades: LiveUpgradeRecord[] = [];
  const sockets = new Set<Socket>();
  const wsSockets = new Set<WebSocket>();
  const scripted: (LiveReaction | string | readonly LiveReaction[])[] = [];
  const waiters: { index: number; resolve: (s: LiveSimulatorSession) => void }[] = [];
  let brain = options.brain ?? liveEchoBrain;
  let closing: Promise<void> | undefined;
  const respond: LiveBrain = (utterance) => scripted.shift() ?? brain(utterance);

  const wss = new WebSocketServer({ noServer: true });
  const calls = new Map<string, LiveSimulatorCall>();
  const sessionStarted = (session: LiveSimulatorSession) => {
    sessions.push(session);
    live.set(session.id, session);
    for (const waiter of [...waiters]) {
      if (waiter.index < sessions.length) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(sessions[waiter.index] as LiveSimulatorSession);
      }
    }
  };
  const callRoutes = {
    calls,
    answer(call: LiveSimulatorCall, config: Record<string, unknown>) {
      const resource = resolveSession(
        validateStart(config),
        call.sessionId,
        Math.floor((Date.now() + lifetimeMs) / 1000),
      );
      const session = new LiveSimulatorSession({
        resource,
        primary: call.line,
        phoneCall: true,
        ids,
        clock,
        tuning,
        brain: () => respond,
        lifetimeMs,
        onClosed: (s) => {
          live.delete(s.id);
          call.line.close(1000, 'session closed');
          if (call.state === 'accepted') call.state = 'ended';
        },
      });
      call.session = session;
      sessionStarted(session);
      call.line.connect(session);
    },
  };
  const server = createServer((req, res) => {
    const serve = async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const path = url.pathname.replace(/\/+$/, '');
      if (path.startsWith(prefix) && req.method === 'POST') {
        if (!authorized(req)) {
          res.writeHead(401, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(refusal('Incorrect API key provided.', 'invalid_api_key')));
          return;
        }
        if (await handleLiveCallRequest(callRoutes, req, res, path.slice(prefix.length))) return;
      }
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Not found' } }));
    };
    serve().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error), type: 'server_error', code: null } }));
    });
  });
  const authorized = (request: IncomingMessage): boolean => {
    const apiKeyHeader = options.azure ? request.headers['api-key'] : undefined;
    const key =
      /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ??
      (typeof apiKeyHeader === 'string' ? apiKeyHeader : undefined);
    return key !== undefined && (options.apiKeys === undefined || options.apiKeys.includes(key));
  };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const startSession = (socket: LiveSimulatorSocket, raw: unknown) => {
    const event = isPlainObject(raw) ? raw : {};
    const clientEventId = typeof event.event_id === 'string' ? event.event_id : undefined;
    const startupError = (error: SimulatorServiceError) => {
      socket.send({
        type: 'error',
        event_id: ids.next('event'),
        error: {
          type: error.errorType,
          code: error.code ?? 'invalid_request_error',
          message: error.message,
          ...(error.param !== null && { param: error.param }),
          ...(clientEventId !== undefined && { client_event_id: clientEventId }),
        },
        ...(clientEventId !== undefined && { client_event_id: clientEventId }),
      } satisfies LiveServerEvent);
      const handle = clock.setTimeout(() => socket.close(1008, 'startup failed'), startupCloseDelayMs);
      void socket.closed.then(() => clock.clearTimeout(handle));
      return undefined;
    };
    if (event.type !== 'session.start') {
      return startupError(
        new SimulatorServiceError(
          'invalid_request_error',
          'The first client event must be session.start.',
          'type',
        ),
      );
    }
    try {
      const config = validateStart(event.session);
      const resource = resolveSession(config, ids.next('live'), Math.floor((Date.now() + lifetimeMs) / 1000));
      const session = new LiveSimulatorSession({
        resource,
        primary: socket,
        ids,
        clock,
        tuning,
        brain: () => respond,
        lifetimeMs,
        onClosed: (s) => live.delete(s.id),
      });
      socket.send({
        type: 'session.started',
        event_id: ids.next('event'),
        session: resource,
        ...(clientEventId !== undefined && { client_event_id: clientEventId }),
      });
      sessionStarted(session);
      return session;
    } catch (error) {
      if (!(error instanceof SimulatorServiceError)) throw error;
      return startupError(error);
    }
  };

  server.on('upgrade', (request, socket: Socket, head) => {
    const admitted = admitUpgrade(request, socket, upgrades, closing !== undefined);
    if (!admitted) return;
    const { url, record } = admitted;
    const target = route(url, prefix);
    if ('status' in target) {
      refuseUpgrade(socket, record, target.status, refusal(target.message));
      return;
    }
    if (!authorized(request)) {
      refuseUpgrade(socket, record, 401, refusal('Incorrect API key provided.', 'invalid_api_key'));
      return;
    }
    const attachTo = target.kind === 'sideband' ? live.get(target.sessionId) : undefined;
    if (target.kind === 'sideband' && !attachTo) {
      refuseUpgrade(
        socket,
        record,
        404,
        refusal(`No active session '${target.sessionId}'.`, 'session_not_found'),
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      wsSockets.add(ws);
      ws.once('close', () => wsSockets.delete(ws));
      const simSocket = new LiveSimulatorSocket(`ws_${wsSockets.size}`, target.kind, ws);
      let session: LiveSimulatorSession | undefined = attachTo;
      let failed = false;
      if (attachTo) attachTo.attach(simSocket);
      ws.on('message', (data, isBinary) => {
        const event = parse(data, isBinary);
        if (isBinary) return;
        const recorded: LiveRecordedClientEvent = { socket: target.kind, sessionId: session?.id, event };
        clientEvents.push(recorded);
        for (const listener of [...clientEventListeners]) listener(recorded);
        if (event === undefined) {
          const error = new SimulatorServiceError('invalid_json', 'The event is not valid JSON.');
          if (session) session.fail(simSocket, error);
          return;
        }
        if (session) {
          session.handle(simSocket, event);
          return;
        }
        if (failed) return;
        session = startSession(simSocket, event);
        failed = session === undefined;
      });
      ws.once('close', () => {
        if (target.kind === 'primary' && session && !session.closed) session.primaryLost();
      });
    });
  });

  const port = await listenOnLoopback(server, options.port);

  return {
    url: `ws://127.0.0.1:${port}${prefix}/v1/live/sessions`,
    baseURL: `http://127.0.0.1:${port}${prefix}/v1`,
    port,
    sessions,
    clientEvents,
    upgrades,
    get brain() {
      return brain;
    },
    set brain(value: LiveBrain) {
      brain = value;
    },
    onClientEvent(listener) {
      clientEventListeners.add(listener);
      return () => clientEventListeners.delete(listener);
    },
    script(...reactions) {
      scripted.push(...reactions);
    },
    async incomingSipCall(callOptions) {
      const sessionId = ids.next('live');
      const call: LiveSimulatorCall = {
        sessionId,
        state: 'ringing',
        control: [],
        sipHeaders: inviteHeaders(callOptions.sipHeaders, sessionId),
        line: new LivePhoneLine(`line_${sessionId}`, clock),
      };
      calls.set(sessionId, call);
      return deliverLiveIncomingCall(call, callOptions);
    },
    call(sessionId) {
      return calls.get(sessionId);
    },
    waitForSession(index = 0) {
      const existing = sessions[index];
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => waiters.push({ index, resolve }));
    },
    close() {
      if (closing) return closing;
      const clients = [...wsSockets].map((ws) => ({
        close: (code: number, reason: string) => ws.close(code, reason),
        terminate: () => ws.terminate(),
        closed: new Promise((resolve) => ws.once('close', resolve)),
      }));
      closing = closeSimulatorServer(server, wss, clients, () => {
        for (const session of live.values()) session.close('connection_lost');
        for (const call of calls.values()) call.line.close(1001, 'simulator closed');
      });
      return closing;
    },
  };
}
