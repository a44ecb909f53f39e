import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { WebSocketServer } from 'ws';

/**
 * The HTTP side both simulators share (the Realtime and the GPT-Live one): recording and refusing upgrades the way
 * the service's gateway does, listening on loopback, and closing everything they serve.
 */

/** One upgrade request a simulator saw, accepted or not. */
export interface UpgradeRecord {
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** 101 when accepted, else the HTTP status it was refused with. */
  status: number;
}

/** A client connection as a simulator closes it. */
export interface ClosableClient {
  close(code: number, reason: string): void;
  terminate(): void;
  readonly closed: Promise<unknown>;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found' };

/**
 * Records an upgrade request in `upgrades` (as accepted until refused) and returns its URL and record. A simulator
 * that is closing drops it (recorded as 503) and gets `undefined`.
 */
export function admitUpgrade(
  request: IncomingMessage,
  socket: Socket,
  upgrades: UpgradeRecord[],
  closing: boolean,
): { url: URL; record: UpgradeRecord } | undefined {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const record: UpgradeRecord = {
    path: url.pathname + url.search,
    headers: { ...request.headers },
    status: 101,
  };
  upgrades.push(record);
  if (!closing) return { url, record };
  record.status = 503;
  socket.destroy();
  return undefined;
}

/** Refuses an upgrade with an HTTP error and a JSON body, and records the status. */
export function refuseUpgrade(socket: Socket, record: UpgradeRecord, status: number, body: unknown): void {
  record.status = status;
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** Listens on 127.0.0.1 (port 0: a free one) and resolves with the port. */
export function listenOnLoopback(server: Server, port = 0): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Closes each client with 1001 (one that does not answer the closing handshake is cut off after a second), then
 * runs `afterClients`, then closes the WebSocket and HTTP servers (and the HTTP connections still open).
 */
export async function closeSimulatorServer(
  server: Server,
  wss: WebSocketServer,
  clients: readonly ClosableClient[],
  afterClients: () => void = () => {},
): Promise<void> {
  for (const client of clients) client.close(1001, 'simulator closed');
  const cutOff = setTimeout(() => {
    for (const client of clients) client.terminate();
  }, 1000);
  await Promise.all(clients.map((client) => client.closed));
  clearTimeout(cutOff);
  afterClients();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
