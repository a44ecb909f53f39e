import type {
  RealtimeCommand,
  RealtimeConnection,
  RealtimeConnectOptions,
  RealtimeModel,
} from '@parley/core';
import { ForwardingConnection } from '@parley/core/internal';
import type { CommandMatch } from './harness.js';

/**
 * The harness side of a protocol whose wire carries no request ids (no `clientRequestId`, no item ids the session
 * chose): the backend cannot translate what it received back into the seam's commands, so the harness records them
 * where they still have the session's ids — at the seam — and reports each one only once the backend confirms it
 * received its wire form. Confirmation is per command type and in order: the backend's n-th `received('createResponse')`
 * confirms the n-th `createResponse` the session sent.
 *
 * A harness gives the scenarios `log.wrap(model)` as its `model`, calls `log.received(type)` from its backend each
 * time the backend takes in the wire form of a command of that type (one wire message may confirm several commands,
 * e.g. a user turn with "respond now": `createItem` and `createResponse`), and answers `commands` and
 * `waitForCommand` with {@link commands} and {@link waitForCommand}. A command the adapter never wrote (it threw), or
 * the backend never got, is never reported: the scenarios see what reached the backend.
 */
export class SeamCommandLog {
  /** Everything the session handed the adapter (not refused at once), in order. */
  readonly #sent: RealtimeCommand[] = [];
  /** How many commands of each type the backend confirmed. */
  readonly #confirmed = new Map<RealtimeCommand['type'], number>();
  readonly #waiters = new Set<() => void>();

  /** `model` with every command the session sends through its connections recorded here. */
  wrap(model: RealtimeModel): RealtimeModel {
    const log = this;
    return {
      specificationVersion: model.specificationVersion,
      provider: model.provider,
      get capabilities() {
        return model.capabilities;
      },
      ...(model.modelId !== undefined && { modelId: model.modelId }),
      async connect(options: RealtimeConnectOptions): Promise<RealtimeConnection> {
        return new RecordedConnection(await model.connect(options), log.#sent);
      },
    };
  }

  /** The backend took in the wire form of `count` more commands of `type`. */
  received(type: RealtimeCommand['type'], count = 1): void {
    this.#confirmed.set(type, (this.#confirmed.get(type) ?? 0) + count);
    for (const notify of [...this.#waiters]) notify();
  }

  /** The commands the backend confirmed, in the order the session sent them. */
  commands(): RealtimeCommand[] {
    const seen = new Map<RealtimeCommand['type'], number>();
    return this.#sent.filter((command) => {
      const index = seen.get(command.type) ?? 0;
      seen.set(command.type, index + 1);
      return index < (this.#confirmed.get(command.type) ?? 0);
    });
  }

  /** Sent at the seam and not (yet) confirmed by the backend. */
  unconfirmed(): RealtimeCommand[] {
    const confirmed = new Set(this.commands());
    return this.#sent.filter((command) => !confirmed.has(command));
  }

  /**
   * Resolves with every confirmed command matching `match` once there are `count` (default 1); rejects after
   * `timeoutMs` (default 2000) naming what was confirmed and what is still unconfirmed.
   */
  waitForCommand(
    match: CommandMatch,
    options: { count?: number; timeoutMs?: number } = {},
  ): Promise<RealtimeCommand[]> {
    const predicate = typeof match === 'string' ? (c: RealtimeCommand) => c.type === match : match;
    const count = options.count ?? 1;
    const matching = () => this.commands().filter(predicate);
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = matching();
        if (found.length < count) return;
        cleanUp();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanUp();
        const types = (commands: RealtimeCommand[]) => commands.map((c) => c.type).join(', ') || 'none';
        reject(
          new Error(
            `Timed out after ${options.timeoutMs ?? 2000} ms waiting for ${count} × ${String(match)}; ` +
              `confirmed by the backend: ${types(this.commands())}; sent but not confirmed: ${types(this.unconfirmed())}.`,
          ),
        );
      }, options.timeoutMs ?? 2000);
      const cleanUp = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }
}

/** A connection whose commands are recorded before the adapter writes them (dropped again when it refuses one). */
class RecordedConnection extends ForwardingConnection {
  readonly #sent: RealtimeCommand[];

  constructor(inner: RealtimeConnection, sent: RealtimeCommand[]) {
    super(inner);
    this.#sent = sent;
  }

  override send(command: RealtimeCommand): void {
    // Recorded first: an in-memory backend may confirm it while the adapter writes it.
    this.#sent.push(command);
    try {
      this.inner.send(command);
    } catch (error) {
      this.#sent.splice(this.#sent.lastIndexOf(command), 1);
      throw error;
    }
  }
}
