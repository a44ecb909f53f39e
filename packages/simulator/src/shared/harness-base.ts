import type { Clock, RealtimeCommand, RealtimeModel } from '@parley/core';
import type { TransportFaults } from '@parley/transport/testing';
import { waitForCommands } from './wait-for-command.js';

/**
 * What every simulator's conformance harness shares, whatever its protocol: the adapter under test and its simulator,
 * the transport faults (a socket that stops without a word, a write that fails), and what the simulator received,
 * read back as seam commands. A protocol's harness says how a written frame and a received client event read as a
 * seam command.
 */
export abstract class SimulatorHarnessBase<
  TSimulator extends { onClientEvent(listener: () => void): () => void },
> {
  /** The adapter under test. */
  readonly model: RealtimeModel;
  /** The simulator behind it. */
  readonly simulator: TSimulator;
  /** The clock scenarios give the session to move its timeouts themselves (see the harness options). */
  readonly sessionClock: (Clock & { advance(ms: number): Promise<void> }) | undefined;
  readonly #faults: TransportFaults | undefined;

  /** `faults` is the transport `model` was given (without it, the harness has no transport faults). */
  constructor(
    simulator: TSimulator,
    model: RealtimeModel,
    faults: TransportFaults | undefined,
    sessionClock?: Clock & { advance(ms: number): Promise<void> },
  ) {
    this.simulator = simulator;
    this.model = model;
    this.#faults = faults;
    this.sessionClock = sessionClock;
  }

  /** The seam command a frame the adapter writes stands for (`undefined`: none). */
  protected abstract commandOfFrame(frame: unknown): RealtimeCommand['type'] | undefined;

  /** Everything the simulator received from the adapter, as seam commands, in order. */
  protected abstract receivedCommands(): RealtimeCommand[];

  /**
   * The adapter's socket stops being open without a word (closing, its close never acknowledged): it reports
   * CLOSING, delivers nothing more and drops what the adapter writes. Present once the adapter opened its socket
   * through the harness's transport.
   */
  get connectionStopsSilently(): (() => Promise<void>) | undefined {
    return this.#faults?.stopSilentlyHook;
  }

  /**
   * The next frame the adapter writes for a command of this type fails to write (the socket's `send` throws). Present
   * once the adapter opened its socket through the harness's transport.
   */
  get failNextWrite(): ((commandType: RealtimeCommand['type']) => Promise<void>) | undefined {
    return this.#faults?.failNextWriteHook((frame) => this.commandOfFrame(JSON.parse(frame)));
  }

  /** Everything received, as seam commands (connect-time configurations left out). */
  async commands(): Promise<readonly RealtimeCommand[]> {
    return this.receivedCommands();
  }

  /** Resolves with the matching commands once `count` arrived; rejects after `timeoutMs` (default 2000). */
  waitForCommand(
    match: RealtimeCommand['type'] | ((command: RealtimeCommand) => boolean),
    options: { count?: number; timeoutMs?: number } = {},
  ): Promise<RealtimeCommand[]> {
    return waitForCommands(
      () => this.receivedCommands(),
      (listener) => this.simulator.onClientEvent(listener),
      match,
      options,
    );
  }
}
