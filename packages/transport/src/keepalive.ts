import type { Clock, TimerHandle } from '@parley/core';
import { errorText, type OptionKeyList, optionKeys } from '@parley/core/internal';
import type { WebSocketLike } from './socket-types.js';

/**
 * How often a connection pings the service while it is open, and how long it waits for the pong before it counts the
 * connection as lost (the session then reconnects, where reconnection is on).
 */
export interface KeepaliveOptions {
  /** Time between pings (ms). Default 30 000. */
  intervalMs?: number;
  /** How long a ping may go unanswered (ms) before the connection is given up. Default 10 000. */
  timeoutMs?: number;
}

/** The keys of {@link KeepaliveOptions}, for the nested unknown-key check. */
export const KEEPALIVE_OPTION_KEYS: OptionKeyList<KeepaliveOptions> = { intervalMs: true, timeoutMs: true };

/** The validated keepalive: `false` when turned off. */
export type ResolvedKeepalive = Required<KeepaliveOptions> | false;

/** The default keepalive: a ping every 30 s, answered within 10 s. */
export const DEFAULT_KEEPALIVE: Required<KeepaliveOptions> = { intervalMs: 30_000, timeoutMs: 10_000 };

/** Validates a model's `keepalive` option (`owner` names its options type in an unknown-key error). */
export function resolveKeepalive(
  value: KeepaliveOptions | false | undefined,
  owner: string,
  invalid: (message: string) => Error,
): ResolvedKeepalive {
  if (value === undefined) return DEFAULT_KEEPALIVE;
  if (value === false) return false;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('keepalive must be { intervalMs, timeoutMs } or false (no pings).');
  }
  optionKeys<KeepaliveOptions>(owner, KEEPALIVE_OPTION_KEYS).check(value, 'keepalive');
  const ms = (name: keyof KeepaliveOptions): number => {
    const given = value[name];
    if (given === undefined) return DEFAULT_KEEPALIVE[name];
    if (!Number.isInteger(given) || given <= 0)
      throw invalid(`keepalive.${name} must be a positive integer (ms).`);
    return given;
  };
  return { intervalMs: ms('intervalMs'), timeoutMs: ms('timeoutMs') };
}

/** The `ws` package socket's ping side (a WHATWG WebSocket cannot ping). */
interface PingingSocket {
  ping(): void;
  on(type: 'pong', listener: () => void): unknown;
  removeListener(type: 'pong', listener: () => void): unknown;
}

function pingingSocketOf(socket: WebSocketLike): PingingSocket | undefined {
  const candidate = socket as Partial<PingingSocket>;
  return typeof candidate.ping === 'function' &&
    typeof candidate.on === 'function' &&
    typeof candidate.removeListener === 'function'
    ? (candidate as PingingSocket)
    : undefined;
}

/**
 * Pings the peer every `intervalMs` and calls `lost` once when a pong has not come back within `timeoutMs`: a
 * socket whose TCP connection died without a close or an error (a NAT or proxy dropped it, the peer vanished, a
 * closing handshake that never finishes) reports nothing until the kernel gives up, minutes later. Only a socket
 * that can ping does (the `ws` package's); for any other it does nothing. Returns the function that stops it.
 */
export function startKeepalive(
  socket: WebSocketLike,
  clock: Clock,
  options: Required<KeepaliveOptions>,
  lost: (reason: string) => void,
): () => void {
  const pinging = pingingSocketOf(socket);
  if (pinging === undefined) return () => {};
  let next: TimerHandle | undefined;
  let deadline: TimerHandle | undefined;
  const onPong = (): void => {
    if (deadline === undefined) return;
    clock.clearTimeout(deadline);
    deadline = undefined;
  };
  const stop = (): void => {
    if (next !== undefined) clock.clearTimeout(next);
    if (deadline !== undefined) clock.clearTimeout(deadline);
    next = deadline = undefined;
    pinging.removeListener('pong', onPong);
  };
  const giveUp = (reason: string): void => {
    stop();
    lost(reason);
  };
  const ping = (): void => {
    next = clock.setTimeout(ping, options.intervalMs);
    if (deadline !== undefined) return; // the last ping is still within its timeout
    try {
      pinging.ping();
    } catch (error) {
      giveUp(`the keepalive ping could not be sent: ${errorText(error)}`);
      return;
    }
    deadline = clock.setTimeout(
      () => giveUp(`no pong within ${options.timeoutMs} ms of a keepalive ping: the connection is dead`),
      options.timeoutMs,
    );
  };
  pinging.on('pong', onPong);
  next = clock.setTimeout(ping, options.intervalMs);
  return stop;
}
