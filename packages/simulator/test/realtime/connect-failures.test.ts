import { getEventListeners } from 'node:events';
import { AbortError } from '@parley/core';
import { ManualClock } from '@parley/mock';
import { OpenAIRealtimeError, OpenAIRealtimeModel } from '@parley/openai';
import { startRealtimeSimulator } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { API_KEY, simulator } from './helpers.js';

/** A ws socket class that remembers its instances, to count listeners left on them. */
function recordingSocket() {
  const sockets: WsWebSocket[] = [];
  class Recording extends WsWebSocket {
    constructor(...args: ConstructorParameters<typeof WsWebSocket>) {
      super(...args);
      sockets.push(this);
    }
  }
  const listeners = () =>
    sockets.map((s) =>
      ['open', 'message', 'error', 'close'].reduce((n, type) => n + s.listenerCount(type), 0),
    );
  return { Recording, sockets, listeners };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

function expectNoSecret(error: Error) {
  expect(`${error.message} ${JSON.stringify(error)} ${String(error.stack)}`).not.toContain(API_KEY);
}

describe('failed connects leave nothing behind', () => {
  test('refused credentials: realtime_auth_failed (401) at the upgrade, no socket, no listener, no timer', async () => {
    const sim = await simulator({ auth: { kind: 'openai', apiKeys: ['sk-the-right-one'] } });
    const clock = new ManualClock();
    const { Recording, sockets, listeners } = recordingSocket();
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url, WebSocket: Recording, clock });
    const error = await failure(model.connect({ config: {} }));
    expect(error).toBeInstanceOf(OpenAIRealtimeError);
    expect(error).toMatchObject({ code: 'realtime_auth_failed', status: 401 });
    expect(error.message).toMatch(/HTTP 401/);
    expectNoSecret(error);
    expect(sim.upgrades.map((u) => u.status)).toEqual([401]);
    expect(sim.connections).toHaveLength(0);
    expect(sockets[0]?.readyState).toBe(WsWebSocket.CLOSED);
    expect(listeners()).toEqual([0]);
    expect(clock.pendingTimers).toBe(0);
    await sim.waitForIdle();
    expect(sim.openSockets).toBe(0);
  });

  test('a wrong path: realtime_handshake_failed with the HTTP status', async () => {
    const sim = await simulator();
    const model = new OpenAIRealtimeModel({
      apiKey: API_KEY,
      url: sim.url.replace('/v1/realtime', '/v2/nope'),
    });
    const error = await failure(model.connect({ config: {} }));
    expect(error).toMatchObject({ code: 'realtime_handshake_failed' });
    // Only the ws package reports the HTTP status of a refused upgrade (undici and browsers do not).
    if (model.webSocketStyle === 'ws') expect(error).toMatchObject({ status: 404 });
    expectNoSecret(error);
    await sim.waitForIdle();
  });

  test('a socket that reports a failed handshake with error and never closes (as undici does) fails at once', async () => {
    const sim = await simulator({ auth: { kind: 'openai', apiKeys: ['sk-other'] } });
    const clock = new ManualClock();
    const created: UndiciLikeSocket[] = [];
    class UndiciLikeSocket {
      readonly #ws: WsWebSocket;
      readonly #listeners = new Map<string, Set<(event: never) => void>>();
      #failed = false;
      binaryType = 'arraybuffer';
      constructor(url: string, init: { protocols: string[]; headers: Record<string, string> }) {
        created.push(this);
        this.#ws = new WsWebSocket(url, init.protocols, { headers: init.headers });
        this.#ws.on('error', (error) => {
          this.#failed = true;
          this.#fire('error', { message: 'Received network error or non-101 status code.', error });
        });
        this.#ws.on('open', () => this.#fire('open', {}));
        this.#ws.on('message', (data) => this.#fire('message', { data: data.toString() }));
        this.#ws.on('close', (code, reason) => {
          if (!this.#failed) this.#fire('close', { code, reason: reason.toString() });
        });
      }
      get readyState() {
        return this.#failed ? 0 : this.#ws.readyState;
      }
      get listenerCount() {
        return [...this.#listeners.values()].reduce((n, set) => n + set.size, 0);
      }
      #fire(type: string, event: unknown) {
        for (const listener of this.#listeners.get(type) ?? []) (listener as (e: unknown) => void)(event);
      }
      addEventListener(type: string, listener: (event: never) => void) {
        if (!this.#listeners.has(type)) this.#listeners.set(type, new Set());
        this.#listeners.get(type)?.add(listener);
      }
      removeEventListener(type: string, listener: (event: never) => void) {
        this.#listeners.get(type)?.delete(listener);
      }
      send(data: string) {
        this.#ws.send(data);
      }
      close(code?: number, reason?: string) {
        if (!this.#failed) this.#ws.close(code, reason);
      }
    }
    const model = new OpenAIRealtimeModel({
      apiKey: API_KEY,
      url: sim.url,
      WebSocket: UndiciLikeSocket as never,
      webSocketStyle: 'headers-init',
      clock,
    });
    const error = await failure(model.connect({ config: {} }));
    expect(error).toMatchObject({ code: 'realtime_handshake_failed' });
    expect(error.message).toMatch(/non-101/);
    expectNoSecret(error);
    expect(created[0]?.listenerCount).toBe(0);
    expect(clock.pendingTimers).toBe(0);
    await sim.waitForIdle();
  });

  test('nothing listening: service_unreachable', async () => {
    const gone = await startRealtimeSimulator();
    await gone.close();
    const clock = new ManualClock();
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url: gone.url, clock });
    const error = await failure(model.connect({ config: {} }));
    expect(error).toMatchObject({ code: 'service_unreachable', service: 'the Realtime service' });
    expectNoSecret(error);
    expect(clock.pendingTimers).toBe(0);
  });

  test('closed before session.created: realtime_closed_before_ready with the close code', async () => {
    const sim = await simulator({
      onConnection: (connection) => {
        connection.close(4002, 'go away');
        return 'defer';
      },
    });
    const clock = new ManualClock();
    const { Recording, listeners } = recordingSocket();
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url, WebSocket: Recording, clock });
    const error = await failure(model.connect({ config: {} }));
    expect(error).toMatchObject({
      code: 'realtime_closed_before_ready',
      closeCode: 4002,
      closeReason: 'go away',
    });
    expect(listeners()).toEqual([0]);
    expect(clock.pendingTimers).toBe(0);
    await sim.waitForIdle();
  });

  test('an error and a close before the session: the error explains the failure', async () => {
    const sim = await simulator({
      onConnection: (connection) => {
        connection.send({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            code: 'beta_api_shape_disabled',
            message: 'Use GA.',
            param: null,
          },
        });
        connection.close(4000, 'beta_api_shape_disabled');
        return 'defer';
      },
    });
    const error = await failure(
      new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url }).connect({ config: {} }),
    );
    expect(error).toMatchObject({
      code: 'realtime_closed_before_ready',
      serverCode: 'beta_api_shape_disabled',
      closeCode: 4000,
    });
    expect(error.message).toMatch(/beta_api_shape_disabled: Use GA\./);
    await sim.waitForIdle();
  });

  test('a refused initial configuration: realtime_session_rejected, and the socket is closed', async () => {
    const sim = await simulator();
    const clock = new ManualClock();
    const { Recording, sockets, listeners } = recordingSocket();
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url, WebSocket: Recording, clock });
    const error = await failure(model.connect({ config: { voice: 'robot' } }));
    expect(error).toMatchObject({ code: 'realtime_session_rejected', serverCode: 'invalid_value' });
    expect(error.message).toMatch(/session\.audio\.output\.voice|robot/);
    expect(sockets[0]?.readyState).toBe(WsWebSocket.CLOSED);
    expect(listeners()).toEqual([0]);
    expect(clock.pendingTimers).toBe(0);
    await sim.waitForIdle();
    expect(sim.connections[0]?.isOpen).toBe(false);
  });

  test('no session.created in time: realtime_connect_timeout on the injected clock', async () => {
    const sim = await simulator({ onConnection: () => 'defer' });
    const clock = new ManualClock();
    const { Recording, listeners } = recordingSocket();
    const model = new OpenAIRealtimeModel({
      apiKey: API_KEY,
      url: sim.url,
      WebSocket: Recording,
      clock,
      connectTimeoutMs: 5000,
    });
    const pending = failure(model.connect({ config: {} }));
    await sim.waitForConnection();
    await clock.advance(4999);
    expect(sim.openConnections).toBe(1);
    await clock.advance(1);
    const error = await pending;
    expect(error).toMatchObject({ code: 'realtime_connect_timeout' });
    expect(error.message).toMatch(/5000 ms/);
    expect(listeners()).toEqual([0]);
    expect(clock.pendingTimers).toBe(0);
    await sim.waitForIdle();
  });

  test('an already aborted signal: AbortError before any socket', async () => {
    const sim = await simulator();
    const controller = new AbortController();
    controller.abort();
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url });
    await expect(model.connect({ config: {}, signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(sim.upgrades).toEqual([]);
  });

  test('aborting while the session is being set up: AbortError, socket closed, listeners removed', async () => {
    const sim = await simulator({ onConnection: () => 'defer' });
    const clock = new ManualClock();
    const controller = new AbortController();
    const { Recording, listeners } = recordingSocket();
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url, WebSocket: Recording, clock });
    const pending = failure(model.connect({ config: {}, signal: controller.signal }));
    await sim.waitForConnection();
    controller.abort(new Error('user left'));
    const error = await pending;
    expect(error).toBeInstanceOf(AbortError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(listeners()).toEqual([0]);
    expect(clock.pendingTimers).toBe(0);
    await sim.waitForIdle();
  });

  test('a successful connect leaves no abort listener and no timer', async () => {
    const sim = await simulator();
    const clock = new ManualClock();
    const controller = new AbortController();
    const model = new OpenAIRealtimeModel({ apiKey: API_KEY, url: sim.url, clock });
    const connection = await model.connect({ config: {}, signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(clock.pendingTimers).toBe(1); // the keepalive's next ping, not the connect timeout
    const closing = connection.close();
    await closing;
    expect(clock.pendingTimers).toBe(0);
    await sim.waitForIdle();
  });
});
