import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { type Clock, systemClock } from '@parley/core';
import type { GeminiClientMessage } from '@parley/google';
import { WebSocketServer } from 'ws';
import {
  admitUpgrade,
  type ClosableClient,
  closeSimulatorServer,
  listenOnLoopback,
  refuseUpgrade,
  type UpgradeRecord,
} from '../shared/sim-server.js';
import { GeminiScript, type GeminiScriptedTurn } from './gemini-script.js';
import { GeminiSimSession } from './gemini-sim-session.js';
import { type GeminiSimulatorOptions, resolveSimulatorSettings } from './gemini-sim-settings.js';
import { ResumptionStore } from './resumption-store.js';

const GEMINI_PATH =
  /^\/ws\/google\.ai\.generativelanguage\.(v1|v1alpha|v1beta)\.GenerativeService\.(BidiGenerateContent|BidiGenerateContentConstrained)$/;
const VERTEX_PATH = /^\/ws\/google\.cloud\.aiplatform\.(v1|v1beta1)\.LlmBidiService\/BidiGenerateContent$/;

/** One upgrade request the simulator saw. */
export type GeminiUpgradeRecord = UpgradeRecord;

/** A running Gemini Live simulator on loopback. */
export interface GeminiSimulator {
  /** `http://127.0.0.1:<port>`: the base URL for `@google/genai`'s `httpOptions.baseUrl`. */
  readonly baseUrl: string;
  /** `ws://127.0.0.1:<port>`: the WebSocket base URL for `GeminiLiveModel`'s `baseUrl`. */
  readonly wsBaseUrl: string;
  readonly port: number;
  /** Every connection that was accepted, in order. */
  readonly sessions: readonly GeminiSimSession[];
  /** The latest connection. */
  readonly latest: GeminiSimSession | undefined;
  readonly upgrades: readonly GeminiUpgradeRecord[];
  /** Every client message of every connection, in order. */
  readonly received: readonly { connection: number; message: GeminiClientMessage }[];
  /** Queues what the model does in its next turns (else it repeats what it heard). */
  respondWith(...turns: GeminiScriptedTurn[]): void;
  /** The simulator hears `text` in the next user audio that carries no text of its own. */
  hear(text: string): void;
  /** Every resumption handle issued so far stops being valid. */
  expireHandles(): void;
  /** Resolves with the next connection that completes its setup. */
  nextSession(): Promise<GeminiSimSession>;
  /** Calls `listener` with each client message from now on; returns the function that stops it. */
  onClientMessage(listener: (message: GeminiClientMessage, connection: number) => void): () => void;
  /** Resolves with the first client message (received so far or later) that `match` accepts. */
  waitForMessage(
    match: (message: GeminiClientMessage, connection: number) => boolean,
  ): Promise<GeminiClientMessage>;
  close(): Promise<void>;
}

/**
 * Starts a Gemini Live simulator: a WebSocket server on 127.0.0.1 that speaks `BidiGenerateContent` on the Gemini API
 * paths (API key, ephemeral token) and the Vertex AI path (bearer token), paced on `clock`.
 */
export async function startGeminiSimulator(options: GeminiSimulatorOptions = {}): Promise<GeminiSimulator> {
  const settings = resolveSimulatorSettings(options);
  const clock: Clock = options.clock ?? systemClock;
  const script = new GeminiScript();
  const store = new ResumptionStore(settings.handleTtlMs);
  const sessions: GeminiSimSession[] = [];
  const upgrades: GeminiUpgradeRecord[] = [];
  const received: { connection: number; message: GeminiClientMessage }[] = [];
  const clients: ClosableClient[] = [];
  const waiting: ((session: GeminiSimSession) => void)[] = [];
  const listeners = new Set<(message: GeminiClientMessage, connection: number) => void>();
  const onClientMessage = (listener: (message: GeminiClientMessage, connection: number) => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  let closing = false;

  const server = createServer((_request, response) => {
    response.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true });

  const refuse = (socket: Socket, record: GeminiUpgradeRecord, status: number, message: string) =>
    refuseUpgrade(socket, record, status, {
      error: { code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : 'NOT_FOUND' },
    });

  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    // A base URL with a trailing slash makes clients ask for `//ws/…`.
    request.url = (request.url ?? '/').replace(/^\/+/, '/');
    const admitted = admitUpgrade(request, socket, upgrades, closing);
    if (!admitted) return;
    const { url, record } = admitted;
    const gemini = GEMINI_PATH.exec(url.pathname);
    let credentialsValid: boolean;
    if (gemini) {
      const constrained = gemini[2] === 'BidiGenerateContentConstrained';
      const header = request.headers['x-goog-api-key'];
      const key = constrained
        ? url.searchParams.get('access_token')
        : (url.searchParams.get('key') ?? (typeof header === 'string' ? header : null));
      credentialsValid =
        key !== null && (constrained ? settings.ephemeralTokens : settings.apiKeys).includes(key);
    } else if (VERTEX_PATH.test(url.pathname)) {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (token === undefined || !settings.accessTokens.includes(token)) {
        refuse(socket, record, 401, 'Request had invalid authentication credentials.');
        return;
      }
      credentialsValid = true;
    } else {
      refuse(socket, record, 404, `No Live API endpoint at ${url.pathname}.`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const session = new GeminiSimSession(ws, sessions.length, { settings, clock, script, store });
      sessions.push(session);
      clients.push({
        close: (code, reason) => session.closeWith(code, reason),
        terminate: () => ws.terminate(),
        closed: session.closed,
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        const text = data.toString();
        const before = session.received.length;
        const wasReady = session.ready;
        session.receive(text);
        for (const message of session.received.slice(before)) {
          received.push({ connection: session.index, message });
          for (const listener of [...listeners]) listener(message, session.index);
        }
        if (!wasReady && session.ready) for (const resolve of waiting.splice(0)) resolve(session);
      });
      ws.on('close', (code) => {
        session.socketClosed(code);
      });
      ws.on('error', () => {});
      // The service accepts the upgrade and then ends a connection whose key it does not know.
      if (!credentialsValid)
        session.closeWith(
          settings.closeCodes.invalidArgument,
          'API key not valid. Please pass a valid API key.',
        );
    });
  });

  const port = await listenOnLoopback(server, options.port);

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    wsBaseUrl: `ws://127.0.0.1:${port}`,
    port,
    sessions,
    get latest() {
      return sessions.at(-1);
    },
    upgrades,
    received,
    respondWith: (...turns) => script.push(...turns),
    hear: (text) => script.hear(text),
    expireHandles: () => store.expireAll(clock.now()),
    nextSession: () => new Promise((resolve) => waiting.push(resolve)),
    onClientMessage,
    waitForMessage(match) {
      const found = received.find((entry) => match(entry.message, entry.connection));
      if (found) return Promise.resolve(found.message);
      return new Promise((resolve) => {
        const stop = onClientMessage((message, connection) => {
          if (!match(message, connection)) return;
          stop();
          resolve(message);
        });
      });
    },
    async close() {
      if (closing) return;
      closing = true;
      await closeSimulatorServer(server, wss, clients);
    },
  };
}
