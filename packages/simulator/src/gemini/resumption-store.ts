import type { GeminiContent } from '@parley/google';

interface Entry {
  history: GeminiContent[];
  session: number;
  /** When the handle stops being valid (clock ms); `Infinity` while its session's connection is open. */
  validUntil: number;
}

/**
 * The server side of session resumption: each handle names a snapshot of a session's context. A handle stays valid
 * while its connection is open and for `ttlMs` after it closed (2 h on the service).
 */
export class ResumptionStore {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  #count = 0;

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  issue(session: number, history: readonly GeminiContent[]): string {
    const handle = `sim-resume-${++this.#count}-${Math.random().toString(36).slice(2, 10)}`;
    this.#entries.set(handle, { history: structuredClone([...history]), session, validUntil: Infinity });
    return handle;
  }

  /** The context a valid handle names, or `undefined` for an unknown or expired one. */
  resolve(handle: string, now: number): GeminiContent[] | undefined {
    const entry = this.#entries.get(handle);
    if (!entry || entry.validUntil <= now) return undefined;
    return structuredClone(entry.history);
  }

  /** The session's connection closed: its handles expire `ttlMs` from now. */
  sessionClosed(session: number, now: number): void {
    for (const entry of this.#entries.values()) {
      if (entry.session === session && entry.validUntil === Infinity) entry.validUntil = now + this.#ttlMs;
    }
  }

  /** Every handle expires now (a test of the expired-handle path). */
  expireAll(now: number): void {
    for (const entry of this.#entries.values()) entry.validUntil = now;
  }
}
