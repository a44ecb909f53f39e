import type { LiveServerEvent } from '@parley/openai/wire';
import type { WebSocket } from 'ws';

/** What a simulated session talks to: a WebSocket, or the phone line of a SIP call (its primary). */
export interface LiveSessionPeer {
  readonly id: string;
  readonly role: 'primary' | 'sideband';
  readonly closed: Promise<{ code: number; reason: string }>;
  send(event: LiveServerEvent): void;
  close(code: number, reason: string): void;
  /** Cuts the connection without a closing handshake (a dropped network). */
  terminate(): void;
}

/** One WebSocket of a simulated GPT-Live session: the primary (audio in and out) or a sideband observer. */
export class LiveSimulatorSocket implements LiveSessionPeer {
  readonly id: string;
  readonly role: 'primary' | 'sideband';
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #ws: WebSocket;

  constructor(id: string, role: 'primary' | 'sideband', ws: WebSocket) {
    this.id = id;
    this.role = role;
    this.#ws = ws;
    this.closed = new Promise((resolve) => {
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  }

  get open(): boolean {
    return this.#ws.readyState === this.#ws.OPEN;
  }

  send(event: LiveServerEvent): void {
    if (this.open) this.#ws.send(JSON.stringify(event));
  }

  close(code: number, reason: string): void {
    if (this.#ws.readyState === this.#ws.OPEN || this.#ws.readyState === this.#ws.CONNECTING) {
      this.#ws.close(code, reason);
    }
  }

  /** Cuts the TCP connection without a closing handshake (a dropped network). */
  terminate(): void {
    this.#ws.terminate();
  }
}
