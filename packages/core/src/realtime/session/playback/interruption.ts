import { INTERRUPTION_SNAPSHOTS_LIMIT } from '../../../constants.js';
import type { PlaybackTracker } from '../../playback/playback-tracker.js';
import type { RealtimeCapabilities, RealtimeCommand } from '../../seam.js';
import { messageCorrectionStrategy } from '../capability-strategies.js';
import type { RealtimeMessageOutcome, RealtimeSessionEvent } from '../events/events.js';
import type { ResponseGeneration } from '../responses/response-generation.js';
import type { ResponseTracker } from '../responses/response-tracker.js';
import type { MessageOrder, OrderedMessage } from './message-order.js';
import { ServicePlaybackState } from './service-playback.js';

/** How one message of an interrupted response ended for the listener. */
export type MessageOutcome = RealtimeMessageOutcome;

/** Who stopped the response. */
export type InterruptSource = 'app' | 'speech' | 'playback' | 'guardrail';

/** Where an interrupted response's message outcomes go: the turn reports and the local history. */
export interface MessageOutcomes {
  /**
   * Applies an outcome to the local history (`skipped` removes the message); `heard` says how much of a
   * spoken message's audio the listener heard, of how much the app received.
   */
  applyOutcome(
    responseId: string,
    itemId: string,
    outcome: MessageOutcome,
    heard?: { ms: number; ofMs: number },
  ): void;
  /** Whether the local history has text for the message (only asked for messages without audio). */
  hasText(itemId: string): boolean;
  /** Every message of the response has its outcome now. */
  settled(responseId: string): void;
}

/** What {@link Interruptions} needs from its session. */
export interface InterruptionPort<TContext> {
  readonly responses: Pick<ResponseTracker<TContext>, 'get' | 'track'>;
  readonly messageOrder: MessageOrder;
  readonly tracker: Pick<PlaybackTracker, 'playedMs' | 'stopped'>;
  /**
   * The responses being generated, the ephemeral one in flight included: released (or abandoned before the provider
   * starts it) by every interruption that names no single response.
   */
  readonly generation: Pick<ResponseGeneration<TContext>, 'releaseInFlight'>;
  /** The way out to the provider (cancels, truncations) and to the app. */
  readonly state: {
    send(command: RealtimeCommand): void;
    emit(event: RealtimeSessionEvent<TContext>): void;
  };
  readonly outcomes: MessageOutcomes;
  /** `true` when the provider cancels its active response by itself on user speech (turn detection). */
  providerCancelsOnSpeech(): boolean;
  /** `true` when the service plays the audio and knows what was heard (`servicePlayback`). */
  servicePlayback(): boolean;
}

interface Snapshot {
  /** Heard position of each message at the interruption, whole ms, clamped to the audio the app got. */
  readonly played: Map<string, number>;
  /** Messages whose audio (or, without audio, whose content) was complete at the interruption. */
  readonly complete: Set<string>;
  /** Messages already corrected on the provider (at the interruption itself), with their outcome. */
  readonly corrected: Map<string, MessageOutcome>;
  /** `servicePlayback`: where the service cut each message it was playing (ms heard). */
  serviceCuts?: Map<string, number>;
  settled: boolean;
}

/**
 * The one interruption path (docs/architecture.md, "The session's units"), shared by `session.interrupt()`, the provider's speech-started
 * event, `session.playback.interrupted()` and output guardrails: each response the listener is hearing
 * (or is about to) is cancelled by its response id once, `audio_interrupted` is emitted once for it,
 * and playback positions are frozen. Each of its messages ends `full`, `partial` (truncated at its own
 * heard position) or `skipped` (removed locally; truncated at 0 and/or deleted on the provider), as far as
 * the provider's capabilities allow; the rest is a `warning`. Messages whose audio already arrived are
 * corrected on the provider at once, in the same turn as the cancel (never waiting for the response's end);
 * the local history takes the outcomes, and messages without audio are judged, once the response is over.
 */
export class Interruptions<TContext> {
  readonly #settings: { readonly capabilities: RealtimeCapabilities; readonly provider: string };
  readonly #host: InterruptionPort<TContext>;
  /** What the service is playing, where it plays the audio (`servicePlayback`). */
  readonly servicePlaying = new ServicePlaybackState();
  /** Created on the first interruption. */
  #stopped: Map<string, Snapshot> | undefined;

  constructor(
    settings: { readonly capabilities: RealtimeCapabilities; readonly provider: string },
    port: InterruptionPort<TContext>,
  ) {
    this.#settings = settings;
    this.#host = port;
  }

  /** Whether `responseId` was stopped: its further audio and text are dropped. */
  isStopped(responseId: string): boolean {
    return this.#stopped !== undefined && this.#stopped.size !== 0 && this.#stopped.has(responseId);
  }

  /**
   * Stops what the listener hears: `responseId` only (a guardrail), or every response that is being
   * generated or still playing, an in-flight ephemeral response included (by its id, or, when the provider
   * has not started it yet, by cancelling it on arrival). A response already stopped is left alone.
   */
  interrupt(source: InterruptSource, responseId?: string): void {
    const early: string[] = [];
    if (responseId !== undefined) early.push(responseId);
    else early.push(...this.#host.generation.releaseInFlight());
    const service = this.#host.servicePlayback();
    // Where the service plays the audio, what it is playing is audible whether or not the session got its audio.
    if (service && responseId === undefined) early.push(...this.servicePlaying.responses);
    const servicePlaying = service && this.servicePlaying.playing;
    // The responses still being generated are stopped (their cancel sent) before the others are looked for:
    // the cancel leaves first; the heard positions, and the truncates that need them, follow in the same call.
    const stopping: (readonly [string, Snapshot])[] = [];
    for (const id of early) this.#begin(source, id, stopping);
    // Where the service plays the audio, only it knows what is still heard: its playing responses were added above.
    if (responseId === undefined && !service) {
      // Only responses that may still be heard are looked at; the others leave the messageOrder's small set for good.
      const messageOrder = this.#host.messageOrder;
      for (const id of messageOrder.responsesWithAudio()) {
        if (this.#stopped?.has(id)) messageOrder.stopWatching(id);
        else if (this.#audible(id)) this.#begin(source, id, stopping);
        else if (this.#host.responses.get(id)?.done) messageOrder.stopWatching(id);
      }
    }
    if (service) this.#clearServicePlayback(source, stopping.length > 0 || servicePlaying);
    if (stopping.length === 0) return;
    // The provider's copies are cut right behind the cancels; freezing local playback and telling the app follow.
    for (const [id, snapshot] of stopping) this.#cut(source, id, snapshot);
    this.#host.tracker.stopped();
    for (const [id, snapshot] of stopping) this.#finish(source, id, snapshot);
  }

  /**
   * `servicePlayback`: the service stops playing, in the same turn as the cancels, and truncates what it was playing
   * itself; not after user speech where the provider's own turn detection already stopped it.
   */
  #clearServicePlayback(source: InterruptSource, audible: boolean): void {
    if (!audible || (source === 'speech' && this.#host.providerCancelsOnSpeech())) return;
    this.servicePlaying.clear();
    this.#host.state.send({ type: 'clearOutputAudio' });
  }

  /**
   * `servicePlayback`: the service cut message `itemId` where the listener stopped hearing it. For a response the
   * session stopped, that is what was heard: `audio_interrupted` says so (once per response) and the history takes
   * it. Returns `false` for a message of no stopped response.
   */
  serviceTruncated(itemId: string, cutAtMs: number): boolean {
    if (!this.#host.servicePlayback() || this.#stopped === undefined) return false;
    for (const [responseId, snapshot] of this.#stopped) {
      const message = this.#host.messageOrder.messagesOf(responseId).find((m) => m.itemId === itemId);
      if (message === undefined) continue;
      const heardMs = Math.max(0, Math.floor(cutAtMs));
      const first = snapshot.serviceCuts === undefined;
      snapshot.serviceCuts ??= new Map();
      snapshot.serviceCuts.set(itemId, heardMs);
      if (first) this.#host.state.emit({ type: 'audio_interrupted', responseId, itemId, heardMs });
      if (snapshot.settled) this.#applyServiceCut(message, heardMs);
      return true;
    }
    return false;
  }

  #applyServiceCut(message: OrderedMessage, heardMs: number): void {
    const ofMs = Math.max(heardMs, this.#host.messageOrder.durationMs(message.passedBytes));
    this.#host.outcomes.applyOutcome(
      message.responseId,
      message.itemId,
      heardMs > 0 ? 'partial' : 'skipped',
      {
        ms: heardMs,
        ofMs,
      },
    );
  }

  /** Takes `responseId`'s heard positions, marks it stopped and cancels it (unless already stopped). */
  #begin(source: InterruptSource, responseId: string, stopping: (readonly [string, Snapshot])[]): void {
    if (this.#stopped?.has(responseId)) return;
    const snapshot = this.#snapshot(responseId);
    this.#markStopped(source, responseId, snapshot);
    stopping.push([responseId, snapshot]);
  }

  /**
   * A response answering a request the session gave up on (a timeout, an abandoned ephemeral response)
   * started: cancel it by id; its events are ignored. Playback of anything else goes on.
   */
  abandoned(responseId: string): void {
    if (this.#stopped?.has(responseId)) return;
    this.#stop('abandoned', responseId, this.#snapshot(responseId));
  }

  /** The response ended: an interrupted one gets its message outcomes now. */
  responseDone(responseId: string): void {
    const snapshot = this.#stopped?.get(responseId);
    if (snapshot && !snapshot.settled) this.#settle(responseId, snapshot);
  }

  /** Forgets everything (the connection is gone). */
  reset(): void {
    this.#stopped?.clear();
    this.servicePlaying.clear();
  }

  #audible(responseId: string): boolean {
    const info = this.#host.responses.get(responseId);
    if (info && !info.done) return true;
    return this.#host.messageOrder
      .messagesOf(responseId)
      .some((message) => this.#heardMs(message) < this.#host.messageOrder.durationMs(message.passedBytes));
  }

  #heardMs(message: OrderedMessage): number {
    const played = this.#host.tracker.playedMs(message.itemId);
    const bounded = Number.isFinite(played) ? Math.floor(played) : 0;
    return Math.min(Math.max(0, bounded), this.#host.messageOrder.durationMs(message.passedBytes));
  }

  #snapshot(responseId: string): Snapshot {
    const played = new Map<string, number>();
    const complete = new Set<string>();
    for (const message of this.#host.messageOrder.messagesOf(responseId)) {
      played.set(message.itemId, this.#heardMs(message));
      const hasAudio = message.receivedBytes > 0;
      if (hasAudio ? message.audioDone : message.messageDone) complete.add(message.itemId);
    }
    return { played, complete, corrected: new Map(), settled: false };
  }

  #stop(source: InterruptSource | 'abandoned', responseId: string, snapshot: Snapshot): void {
    this.#markStopped(source, responseId, snapshot);
    this.#cut(source, responseId, snapshot);
    this.#finish(source, responseId, snapshot);
  }

  /** Marks the response stopped (its further content is dropped) and cancels it unless it is over. */
  #markStopped(source: InterruptSource | 'abandoned', responseId: string, snapshot: Snapshot): void {
    const info = this.#host.responses.track(responseId);
    this.#stopped ??= new Map();
    const stopped = this.#stopped;
    stopped.set(responseId, snapshot);
    if (stopped.size > INTERRUPTION_SNAPSHOTS_LIMIT) this.#forgetOldest();
    info.interrupted = true;
    const providerCancels = source === 'speech' && !info.ephemeral && this.#host.providerCancelsOnSpeech();
    if (!info.done && !providerCancels) this.#host.state.send({ type: 'cancelResponse', responseId });
  }

  /**
   * Corrects the provider's copy of what was already heard, in the same turn as the cancel: every message of a
   * finished response, the messages with audio of one still going (the others are judged once it is over).
   */
  #cut(source: InterruptSource | 'abandoned', responseId: string, snapshot: Snapshot): void {
    // Where the service plays the audio, it truncates what it was playing itself.
    if (source === 'abandoned' || this.#host.servicePlayback()) return;
    const info = this.#host.responses.get(responseId);
    if (info === undefined || info.ephemeral) return;
    for (const message of this.#host.messageOrder.messagesOf(responseId)) {
      const hasAudio = message.receivedBytes > 0;
      if (!hasAudio && !info.done) continue;
      const outcome = this.#outcome(message, snapshot);
      snapshot.corrected.set(message.itemId, outcome);
      this.#correct(message.itemId, outcome, hasAudio, snapshot.played.get(message.itemId) ?? 0);
    }
  }

  /** Tells the app what it was playing when it stopped, and settles a finished response. */
  #finish(source: InterruptSource | 'abandoned', responseId: string, snapshot: Snapshot): void {
    const info = this.#host.responses.track(responseId);
    // Where the service plays the audio, what was heard comes from its truncation (`serviceTruncated`).
    if (source !== 'abandoned' && !this.#host.servicePlayback()) {
      const messages = this.#host.messageOrder.messagesOf(responseId);
      const withAudio = messages.filter((m) => m.passedBytes > 0);
      if (withAudio.length > 0) {
        const heard =
          withAudio.find(
            (m) => (snapshot.played.get(m.itemId) ?? 0) < this.#host.messageOrder.durationMs(m.passedBytes),
          ) ?? withAudio.at(-1);
        this.#host.state.emit({
          type: 'audio_interrupted',
          responseId,
          ...(heard && { itemId: heard.itemId, heardMs: snapshot.played.get(heard.itemId) ?? 0 }),
        });
      }
    }
    if (info.done) this.#settle(responseId, snapshot);
  }

  #settle(responseId: string, snapshot: Snapshot): void {
    snapshot.settled = true;
    const info = this.#host.responses.get(responseId);
    if (info?.ephemeral === true) return;
    for (const message of this.#host.messageOrder.messagesOf(responseId)) {
      this.#settleMessage(message, snapshot);
    }
    this.#host.outcomes.settled(responseId);
  }

  #settleMessage(message: OrderedMessage, snapshot: Snapshot): void {
    const { itemId } = message;
    if (this.#host.servicePlayback()) {
      const cut = snapshot.serviceCuts?.get(itemId);
      if (cut !== undefined) this.#applyServiceCut(message, cut);
      else this.#host.outcomes.applyOutcome(message.responseId, itemId, this.#outcome(message, snapshot));
      return;
    }
    const corrected = snapshot.corrected.get(itemId);
    const outcome = corrected ?? this.#outcome(message, snapshot);
    const played = snapshot.played.get(itemId) ?? 0;
    const heard =
      outcome === 'partial' && message.receivedBytes > 0
        ? { ms: played, ofMs: this.#host.messageOrder.durationMs(message.passedBytes) }
        : undefined;
    this.#host.outcomes.applyOutcome(message.responseId, itemId, outcome, heard);
    if (corrected === undefined) {
      this.#correct(itemId, outcome, message.receivedBytes > 0, snapshot.played.get(itemId) ?? 0);
    }
  }

  #outcome(message: OrderedMessage, snapshot: Snapshot): MessageOutcome {
    const { itemId } = message;
    const played = snapshot.played.get(itemId) ?? 0;
    const complete = snapshot.complete.has(itemId);
    if (message.receivedBytes > 0) {
      const passedMs = this.#host.messageOrder.durationMs(message.passedBytes);
      return complete && passedMs > 0 && played >= passedMs ? 'full' : played > 0 ? 'partial' : 'skipped';
    }
    return complete ? 'full' : this.#host.outcomes.hasText(itemId) ? 'partial' : 'skipped';
  }

  /** Cuts the provider's copy of a message to what the listener heard (or says why it cannot). */
  #correct(itemId: string, outcome: MessageOutcome, hasAudio: boolean, played: number): void {
    const correction = messageCorrectionStrategy(outcome, hasAudio, played, this.#settings.capabilities);
    if (correction.truncateAtMs !== undefined) this.#truncate(itemId, correction.truncateAtMs);
    if (correction.delete) this.#host.state.send({ type: 'deleteItem', itemId });
    if (correction.uncorrected === 'message_not_truncated') {
      this.#warn(
        'message_not_truncated',
        itemId,
        `stays in the provider's context in full: "${this.#settings.provider}" does not declare messageTruncation, so the model may believe the user heard all of it (the user heard ${played} ms).`,
      );
    } else if (correction.uncorrected === 'message_not_removed') {
      this.#warn(
        'message_not_removed',
        itemId,
        `stays in the provider's context although the user never heard it: "${this.#settings.provider}" declares neither messageTruncation nor mutableChatContext.`,
      );
    }
  }

  #truncate(itemId: string, heardMs: number): void {
    this.#host.state.send({ type: 'truncateItem', itemId, heardMs });
  }

  #warn(code: string, itemId: string, detail: string): void {
    this.#host.state.emit({
      type: 'warning',
      code,
      itemId,
      message: `Interrupted message ${itemId} ${detail}`,
    });
  }

  #forgetOldest(): void {
    if (!this.#stopped) return;
    for (const [id, snapshot] of this.#stopped) {
      if (snapshot.settled) {
        this.#stopped.delete(id);
        return;
      }
    }
  }
}
