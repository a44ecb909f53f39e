import type { Agent } from '../../../agent.js';
import type { Clock, TimerHandle } from '../../../clock.js';
import { TRACKED_RESPONSES_LIMIT } from '../../../constants.js';
import type { PlaybackTracker } from '../../playback/playback-tracker.js';
import type { RealtimeResponseEndReason, RealtimeResponseStatus } from '../../seam.js';
import type { RealtimeHistory } from '../history/history.js';
import type { RealtimeHistoryItem } from '../history/history-item.js';
import { heardPart } from '../history/history-mirror.js';
import type { MessageOrder } from '../playback/message-order.js';
import type { RealtimeMessageOutcome, RealtimeSessionEventOf, RealtimeTurnMessage } from './events.js';

/** What {@link TurnReports} needs from its session. */
export interface TurnReportHost<TContext> {
  readonly clock: Clock;
  readonly history: RealtimeHistory;
  readonly messageOrder: MessageOrder;
  readonly tracker: PlaybackTracker;
  /** Whether the interruption path stopped the response (its outcomes come from there). */
  isStopped(responseId: string): boolean;
  emit(event: RealtimeSessionEventOf<'turn_done', TContext>): void;
}

interface Turn<TContext> {
  readonly responseId: string;
  /** Outcomes the interruption path decided, with the message as it was then. */
  readonly decided: Map<string, RealtimeTurnMessage>;
  /** Its messages the provider deleted before their outcome was decided. */
  readonly removed: Map<string, RealtimeHistoryItem & { type: 'message' }>;
  end:
    | { agent: Agent<TContext>; status: RealtimeResponseStatus; reason?: RealtimeResponseEndReason }
    | undefined;
  timer: TimerHandle | undefined;
  /** Milliseconds heard when the timer was armed: a timer that finds no progress is not re-armed. */
  heardAtArm: number;
}

/**
 * One `turn_done` per conversation response, when the turn is over for the listener: at its end when it
 * has no audio still playing; otherwise once the tracker says all of it was heard (checked at the playing
 * time's estimated end on the session's clock, and at each playback report), or when the interruption path
 * settles it, or when the connection ends (with what was heard by then). Outcomes of interrupted messages
 * are the interruption path's own (recorded as it applies them); the others are read from the tracker.
 */
export class TurnReports<TContext> {
  readonly #host: TurnReportHost<TContext>;
  /** Created on first use: an idle session holds none. */
  #turns: Map<string, Turn<TContext>> | undefined;

  constructor(host: TurnReportHost<TContext>) {
    this.#host = host;
  }

  /** Records how the interruption path ended a message of `responseId`, around `apply` (which updates the history). */
  messageOutcome(
    responseId: string,
    itemId: string,
    outcome: RealtimeMessageOutcome,
    apply: () => void,
  ): void {
    const turn = this.#turn(responseId);
    const found = this.#host.history.get(itemId);
    const before = found?.type === 'message' ? found : turn.removed.get(itemId);
    apply();
    if (!before) return;
    const after = this.#host.history.get(itemId);
    const message: RealtimeTurnMessage =
      outcome === 'partial'
        ? {
            itemId,
            outcome,
            text: before.text,
            heardText: after?.type === 'message' ? (after.heardText ?? after.text) : before.text,
            ...(after?.type === 'message' && after.heardMs !== undefined && { heardMs: after.heardMs }),
          }
        : { itemId, outcome, text: before.text };
    turn.decided.set(itemId, message);
  }

  /**
   * A message is about to leave the history (the provider deleted it): a stopped response's message is kept
   * here, so its outcome still names what had arrived.
   */
  removing(itemId: string): void {
    const item = this.#host.history.get(itemId);
    if (item?.type !== 'message' || item.responseId === undefined) return;
    if (!this.#host.isStopped(item.responseId)) return;
    this.#turn(item.responseId).removed.set(itemId, item);
  }

  /** The interruption path settled a response's outcomes (an ended one waits no longer for its audio). */
  settled(responseId: string): void {
    const turn = this.#turns?.get(responseId);
    if (turn?.end) this.#report(turn);
  }

  /** A conversation response ended (after its `response_done`). */
  responseDone(
    responseId: string,
    agent: Agent<TContext>,
    status: RealtimeResponseStatus,
    reason?: RealtimeResponseEndReason,
  ): void {
    const turn = this.#turn(responseId);
    if (turn.end) return;
    turn.end = { agent, status, ...(reason !== undefined && { reason }) };
    this.#check(turn);
  }

  /** The app reported playback progress: turns waiting for their audio may be heard by now. */
  playbackReported(): void {
    for (const turn of [...(this.#turns?.values() ?? [])]) if (turn.end) this.#check(turn);
  }

  /**
   * The connection is lost while `responseIds` stream: their turns are read now (before the release forgets
   * what was heard) and reported by the returned function, after their `response_done`.
   */
  cut(responseIds: readonly { responseId: string; agent: Agent<TContext> }[]): () => void {
    const reports = responseIds.map(({ responseId, agent }) => {
      const turn = this.#turn(responseId);
      turn.end = { agent, status: 'failed', reason: 'connection_lost' };
      return this.#take(turn);
    });
    return () => {
      for (const report of reports) if (report) this.#host.emit(report);
    };
  }

  /**
   * The connection ends: every ended turn still waiting for its audio is reported with what was heard by
   * now; the rest is forgotten.
   */
  flush(): void {
    for (const turn of [...(this.#turns?.values() ?? [])]) if (turn.end) this.#report(turn);
    this.reset();
  }

  /** Forgets everything, timers included. */
  reset(): void {
    for (const turn of this.#turns?.values() ?? []) this.#disarm(turn);
    this.#turns?.clear();
  }

  #turn(responseId: string): Turn<TContext> {
    let turn = this.#turns?.get(responseId);
    if (!turn) {
      turn = {
        responseId,
        decided: new Map(),
        removed: new Map(),
        end: undefined,
        timer: undefined,
        heardAtArm: 0,
      };
      this.#turns ??= new Map();
      this.#turns.set(responseId, turn);
      if (this.#turns.size > TRACKED_RESPONSES_LIMIT) {
        const [oldest] = this.#turns.values();
        if (oldest && oldest !== turn) {
          if (oldest.end) this.#report(oldest);
          else this.#forget(oldest);
        }
      }
    }
    return turn;
  }

  /** Reports the turn when nothing of it is left to hear; otherwise waits for the audio's estimated end. */
  #check(turn: Turn<TContext>): void {
    if (this.#host.isStopped(turn.responseId)) {
      // Settled by the interruption path by now: it settles a stopped response before its end is reported.
      this.#report(turn);
      return;
    }
    const { unheard, heard } = this.#playing(turn.responseId);
    if (unheard === 0) {
      this.#report(turn);
      return;
    }
    if (turn.timer !== undefined) return;
    turn.heardAtArm = heard;
    turn.timer = this.#host.clock.setTimeout(() => {
      turn.timer = undefined;
      if (this.#turns?.get(turn.responseId) !== turn) return;
      const now = this.#playing(turn.responseId);
      if (now.unheard === 0) this.#report(turn);
      // Progress on the clock: audio plays in real time, look again at its new estimated end. No progress:
      // positions come from the app's reports (or an interruption), which check again.
      else if (now.heard > turn.heardAtArm) this.#check(turn);
    }, unheard);
  }

  /** Milliseconds of the response's audio (that reached the app) not heard yet, and heard so far. */
  #playing(responseId: string): { unheard: number; heard: number } {
    let unheard = 0;
    let heard = 0;
    for (const message of this.#host.messageOrder.messagesOf(responseId)) {
      const passedMs = this.#host.messageOrder.durationMs(message.passedBytes);
      const heardMs = this.#heardMs(message.itemId, passedMs);
      heard += heardMs;
      unheard = Math.max(unheard, passedMs - heardMs);
    }
    return { unheard, heard };
  }

  #heardMs(itemId: string, passedMs: number): number {
    const played = this.#host.tracker.playedMs(itemId);
    return Math.min(Math.max(0, Number.isFinite(played) ? Math.floor(played) : 0), passedMs);
  }

  #report(turn: Turn<TContext>): void {
    const event = this.#take(turn);
    if (!event) return;
    this.#host.emit(event);
    // Audio queued behind this turn's starts playing now: turns that stopped waiting on the clock look again.
    for (const next of [...(this.#turns?.values() ?? [])]) {
      if (next.end && next.timer === undefined && this.#turns?.get(next.responseId) === next)
        this.#check(next);
    }
  }

  /** Builds the turn's event and forgets the turn. */
  #take(turn: Turn<TContext>): RealtimeSessionEventOf<'turn_done', TContext> | undefined {
    this.#forget(turn);
    const end = turn.end;
    if (!end) return undefined;
    const messages = this.#messages(turn);
    const toolCalls: { callId: string; name: string }[] = [];
    for (const item of this.#host.history.items) {
      if (item.type === 'function_call' && item.responseId === turn.responseId) {
        toolCalls.push({ callId: item.callId, name: item.name });
      }
    }
    return {
      type: 'turn_done',
      responseId: turn.responseId,
      agent: end.agent,
      status: end.status,
      ...(end.reason !== undefined && { reason: end.reason }),
      outcome: turnOutcome(messages, end.status),
      transcript: messages
        .map((m) => (m.outcome === 'full' ? m.text : m.outcome === 'partial' ? m.heardText : ''))
        .filter((text) => text.length > 0)
        .join(' '),
      messages,
      toolCalls,
    };
  }

  /** The turn's messages in order: decided by the interruption path, or read from what was heard. */
  #messages(turn: Turn<TContext>): RealtimeTurnMessage[] {
    const { history, messageOrder } = this.#host;
    const ids = new Set<string>();
    const audio = new Map<string, number>();
    for (const message of messageOrder.messagesOf(turn.responseId)) {
      ids.add(message.itemId);
      if (message.passedBytes > 0) audio.set(message.itemId, messageOrder.durationMs(message.passedBytes));
    }
    for (const item of history.items) {
      if (item.type === 'message' && item.role === 'assistant' && item.responseId === turn.responseId) {
        ids.add(item.itemId);
      }
    }
    for (const itemId of turn.decided.keys()) ids.add(itemId);
    const messages: RealtimeTurnMessage[] = [];
    for (const itemId of ids) {
      const decided = turn.decided.get(itemId);
      if (decided) {
        messages.push(decided);
        continue;
      }
      const item = history.get(itemId);
      if (item?.type !== 'message') continue;
      messages.push(heardMessage(item, audio.get(itemId), (passedMs) => this.#heardMs(itemId, passedMs)));
    }
    return messages;
  }

  #forget(turn: Turn<TContext>): void {
    this.#disarm(turn);
    if (this.#turns?.get(turn.responseId) === turn) this.#turns.delete(turn.responseId);
  }

  #disarm(turn: Turn<TContext>): void {
    if (turn.timer !== undefined) this.#host.clock.clearTimeout(turn.timer);
    turn.timer = undefined;
  }
}

/** A message the interruption path did not judge: full, unless its audio was not all heard. */
function heardMessage(
  item: RealtimeHistoryItem & { type: 'message' },
  passedMs: number | undefined,
  heardMs: (passedMs: number) => number,
): RealtimeTurnMessage {
  const { itemId, text } = item;
  if (passedMs === undefined) return { itemId, outcome: 'full', text };
  const heard = heardMs(passedMs);
  if (heard >= passedMs) return { itemId, outcome: 'full', text };
  if (heard === 0) return { itemId, outcome: 'skipped', text };
  return { itemId, outcome: 'partial', text, heardText: heardPart(text, heard / passedMs), heardMs: heard };
}

function turnOutcome(
  messages: readonly RealtimeTurnMessage[],
  status: RealtimeResponseStatus,
): RealtimeMessageOutcome {
  if (messages.length === 0) return status === 'completed' ? 'full' : 'skipped';
  if (messages.every((m) => m.outcome === 'full')) return 'full';
  if (messages.every((m) => m.outcome === 'skipped')) return 'skipped';
  return 'partial';
}
