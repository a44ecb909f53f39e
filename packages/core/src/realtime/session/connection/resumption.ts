import type { RealtimeCommand, RealtimeEvent } from '../../seam.js';
import type { RealtimeHistoryItem } from '../history/history-item.js';
import { contentKey, historyKeys } from '../history/history-replay.js';

type ResumeTokenEvent = Extract<RealtimeEvent, { type: 'resume_token' }>;

/** A command that adds to the conversation: what a resume token counts. */
export function isContentCommand(command: RealtimeCommand): boolean {
  const type = command.type;
  return type === 'createItem' || type === 'sendToolOutput' || type === 'appendContext';
}

/**
 * Session resumption (providers with `sessionResumption`): the latest resume token of the conversation, and what
 * the conversation it restores holds of the session's history. The content commands sent on the live connection are
 * counted in order; a token says how many of them it holds, so the history it covers is what the history held when
 * the token arrived, less the content sent after the ones it counts. After a resume the session replays the rest.
 */
export class Resumption {
  readonly #enabled: boolean;
  #token: string | undefined;
  /** History keys (see `historyKeys`) the token's conversation holds. */
  #covered: ReadonlySet<string> | undefined;
  /** The history key of each content command sent on the live connection, in order (none for context appends). */
  #sent: (string | undefined)[] = [];

  constructor(enabled: boolean) {
    this.#enabled = enabled;
  }

  /** The token the next reconnect or recycle resumes with, if any. */
  get token(): string | undefined {
    return this.#token;
  }

  /** What the conversation of {@link token} holds, as history keys. */
  get covered(): ReadonlySet<string> {
    return this.#covered ?? new Set();
  }

  /** A content command went out on the live connection. */
  sent(command: RealtimeCommand): void {
    if (!this.#enabled || !isContentCommand(command)) return;
    this.#sent.push(contentKey(command));
  }

  /** The provider issued a token; `history` is the session's history now. */
  tokenIssued(event: ResumeTokenEvent, history: readonly RealtimeHistoryItem[]): void {
    if (!this.#enabled) return;
    const notHeld = new Set(this.#sent.slice(Math.max(0, event.contentCommands)));
    const covered = new Set<string>();
    for (const key of historyKeys(history)) if (!notHeld.has(key)) covered.add(key);
    this.#token = event.token;
    this.#covered = covered;
  }

  /** A connection became the live one: its content is counted from zero. */
  adopted(resumed: boolean): void {
    this.#sent = [];
    // A token the provider did not resume with is dead: the new connection issues its own.
    if (!resumed) this.forget();
  }

  /** No conversation to resume any more (a new one was started by the app, or the session closed). */
  forget(): void {
    this.#token = undefined;
    this.#covered = undefined;
  }
}
