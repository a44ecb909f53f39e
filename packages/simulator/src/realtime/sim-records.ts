import type { UpgradeRecord } from '../shared/sim-server.js';
import type { SimulatorConnection } from './sim-connection.js';

/** A client event with the connection it arrived on. */
export interface RecordedClientEvent {
  connectionId: string;
  event: unknown;
}

/**
 * What a simulator remembers of its connections: every open one, and the ended ones up to `keepEnded` (the most
 * recent; older ones are forgotten with their client events), plus the upgrade requests of that window. Indices
 * (`waitFor`) and ids (`conn_<n>`) count every connection ever accepted.
 */
export class SimulatorRecords {
  readonly connections: SimulatorConnection[] = [];
  readonly clientEvents: RecordedClientEvent[] = [];
  readonly upgrades: UpgradeRecord[] = [];
  readonly #keepEnded: number;
  readonly #indexOf = new WeakMap<SimulatorConnection, number>();
  #accepted = 0;
  #waiters: { index: number; resolve: (c: SimulatorConnection) => void }[] = [];

  constructor(keepEnded: number) {
    this.#keepEnded = keepEnded;
  }

  /** The id of the next connection. */
  nextId(): string {
    return `conn_${this.#accepted + 1}`;
  }

  added(connection: SimulatorConnection): void {
    const index = this.#accepted++;
    this.#indexOf.set(connection, index);
    this.connections.push(connection);
    for (const waiter of [...this.#waiters]) {
      if (waiter.index !== index) continue;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(connection);
    }
  }

  /** A connection ended: the ended ones beyond the window are forgotten. */
  ended(): void {
    if (!Number.isFinite(this.#keepEnded)) return;
    const ended = this.connections.filter((c) => !c.isOpen);
    const excess = ended.length - this.#keepEnded;
    if (excess <= 0) return;
    const forgotten = new Set(ended.slice(0, excess));
    const ids = new Set([...forgotten].map((c) => c.id));
    keepOnly(this.connections, (c) => !forgotten.has(c));
    keepOnly(this.clientEvents, (record) => !ids.has(record.connectionId));
    this.trimUpgrades();
  }

  /** Keeps the upgrade requests of the window: as many as the connections remembered. */
  trimUpgrades(): void {
    if (!Number.isFinite(this.#keepEnded)) return;
    const open = this.connections.filter((c) => c.isOpen).length;
    const excess = this.upgrades.length - (this.#keepEnded + open + 1);
    if (excess > 0) this.upgrades.splice(0, excess);
  }

  /** Resolves with the `index`-th connection (0-based) once it exists; rejects if it was forgotten. */
  waitFor(index: number): Promise<SimulatorConnection> {
    const known = this.connections.find((c) => this.#indexOf.get(c) === index);
    if (known) return Promise.resolve(known);
    if (index < this.#accepted) {
      return Promise.reject(
        new Error(`Connection ${index} ended and was forgotten (keepEndedConnections: ${this.#keepEnded}).`),
      );
    }
    return new Promise((resolve) => this.#waiters.push({ index, resolve }));
  }
}

function keepOnly<T>(list: T[], keep: (item: T) => boolean): void {
  let kept = 0;
  for (const item of list) if (keep(item)) list[kept++] = item;
  list.length = kept;
}
