import type { AnyAgent, RunState } from '@parley/core';
import { RunState as RunStateClass } from '@parley/core';
import { brand } from '@parley/core/internal';
import { checkId, MemoryStoreError } from './errors.js';
import type { MemoryStore } from './store.js';

/** Options of {@link PausedRuns}. */
export interface PausedRunsOptions {
  /** How long a claim holds before another process may take the run, in ms. Default 10 minutes. */
  leaseMs?: number;
  /** Wall time in ms since the epoch (leases are compared across machines). Default `Date.now`. */
  now?: () => number;
}

const DEFAULT_LEASE_MS = 10 * 60_000;

/**
 * Paused runs (waiting for approvals) saved under an id, so that any process can resume them. Resuming
 * starts with {@link PausedRuns.claim}: of two processes that race for one run, one gets it and the other
 * `undefined`, so each tool of the run executes once.
 */
export class PausedRuns {
  readonly #store: MemoryStore;
  readonly #leaseMs: number;
  readonly #now: () => number;

  constructor(store: MemoryStore, options: PausedRunsOptions = {}) {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!(Number.isFinite(leaseMs) && leaseMs > 0)) {
      throw new MemoryStoreError(
        'invalid_option',
        `leaseMs must be a positive number of ms, got ${String(leaseMs)}.`,
      );
    }
    this.#store = store;
    this.#leaseMs = leaseMs;
    this.#now = options.now ?? Date.now;
  }

  /** Saves a paused run (`state.status === 'interrupted'`) under `runId`, replacing what was there. */
  async save(runId: string, state: RunState<unknown>): Promise<void> {
    checkId('runId', runId);
    if (state.status !== 'interrupted') {
      throw new MemoryStoreError(
        'run_not_paused',
        `Only a paused run (status 'interrupted', waiting for approvals) can be saved; this one is ${state.status}.`,
      );
    }
    await this.#store.saveRun(runId, state.toString());
  }

  /**
   * Takes the run saved under `runId` for this process and restores it for `agent` (the run's starting
   * agent). `undefined` when there is no such run or another process holds it.
   */
  async claim<TContext>(runId: string, agent: AnyAgent<TContext>): Promise<ClaimedRun<TContext> | undefined> {
    checkId('runId', runId);
    const owner = globalThis.crypto.randomUUID();
    const now = this.#now();
    const text = await this.#store.claimRun(runId, { owner, leaseUntil: now + this.#leaseMs }, now);
    if (text === undefined) return undefined;
    let state: RunState<TContext>;
    try {
      state = RunStateClass.fromString(agent, text);
    } catch (error) {
      await this.#store.finishRun(runId, owner, text);
      throw error;
    }
    return new ClaimedRun(this.#store, runId, owner, state, text);
  }
}

/** A paused run this process holds: decide its approvals, resume it with `run(agent, claimed.state)`, then `finish`. */
export class ClaimedRun<TContext> {
  static {
    brand(ClaimedRun, 'memory.ClaimedRun');
  }

  readonly #store: MemoryStore;
  readonly #owner: string;
  readonly #saved: string;
  #done = false;
  /** The run's id in the store. */
  readonly runId: string;
  /** The restored state: approve or reject its interruptions, then resume it. */
  readonly state: RunState<TContext>;

  constructor(store: MemoryStore, runId: string, owner: string, state: RunState<TContext>, saved: string) {
    this.#store = store;
    this.#saved = saved;
    this.runId = runId;
    this.#owner = owner;
    this.state = state;
  }

  /**
   * Ends the claim with the resumed run's state: paused again (new approvals) it is saved for the next
   * claim; otherwise it is removed. Throws `claim_lost` when the lease lapsed and another process took the run.
   */
  async finish(state: RunState<TContext>): Promise<void> {
    await this.#end(state.status === 'interrupted' ? state.toString() : undefined);
  }

  /** Gives the run back as it was saved (e.g. no decision was made): another claim can take it at once. */
  async release(): Promise<void> {
    await this.#end(this.#saved);
  }

  async #end(text: string | undefined): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    if (!(await this.#store.finishRun(this.runId, this.#owner, text))) {
      throw new MemoryStoreError(
        'claim_lost',
        `The claim on run "${this.runId}" lapsed and another process took it; raise leaseMs above the time a resumed run takes.`,
      );
    }
  }
}
