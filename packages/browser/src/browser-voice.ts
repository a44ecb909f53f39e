import { type RealtimeSession, SessionNotConnectedError } from '@parley/core';
import { BrowserPlaybackTracker } from './browser-playback-tracker.js';
import { BrowserVoiceError } from './errors.js';
import { MicrophoneCapture, microphoneEndedError, openMicrophone } from './microphone.js';
import { type BrowserVoiceOptions, resolveOptions } from './options.js';
import { type PlaybackStop, SpeakerPlayback } from './speaker.js';
import { loadWorkletModule } from './worklet-module.js';

/** A running microphone and speaker for one session; `close()` releases them. */
export interface BrowserVoice {
  /** The context the worklets run in (the app's, or the helper's own). */
  readonly audioContext: AudioContext;
  /** The microphone's track, when there is a microphone. */
  readonly microphoneTrack: MediaStreamTrack | undefined;
  /** Whether the microphone is muted (no audio goes to the session). */
  readonly muted: boolean;
  /** Push-to-talk: between `startTalking()` and `stopTalking()`. */
  readonly talking: boolean;
  /** What the last barge-in stopped, once one did. */
  readonly lastStop: PlaybackStop | undefined;
  /**
   * Why the microphone stopped by itself (`microphone_ended`: unplugged, permission revoked), once it did; the
   * helper released it then, and no more audio goes to the session.
   */
  readonly microphoneError: BrowserVoiceError | undefined;
  /** Whether `close()` was called (or the session closed). */
  readonly closed: boolean;
  mute(): void;
  unmute(): void;
  /**
   * Push-to-talk: stops what the assistant is saying (`session.interrupt()`, cut where the user stopped hearing it)
   * and opens the microphone.
   */
  startTalking(): void;
  /** Push-to-talk: closes the microphone and commits the turn (`session.commitAudio()`). */
  stopTalking(): void;
  /** Milliseconds of message `itemId` that came out of the speaker. */
  playedMs(itemId: string): number;
  /**
   * Stops the microphone's tracks, the worklets and (when the helper created it) the `AudioContext`. Idempotent;
   * the session stays open (close it yourself). Also runs by itself when the session closes.
   */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Connects the browser's microphone and speaker to `session`: microphone audio (through the browser's echo
 * cancellation, noise suppression and gain control) goes to `session.sendAudio` in the session's input format; the
 * session's audio plays through an AudioWorklet that reports what was heard to `session.playback`, and stops within
 * one render quantum on `audio_interrupted`. Call it from a user gesture (a click), so the browser lets audio start.
 * On any failure everything it opened is released before it rejects with a {@link BrowserVoiceError}.
 */
export async function connectBrowserVoice<TContext>(
  options: BrowserVoiceOptions<TContext>,
): Promise<BrowserVoice> {
  const resolved = resolveOptions(options);
  const { session, signal } = resolved;
  const releases: (() => void | Promise<void>)[] = [];
  const release = async () => {
    for (const step of releases.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // Releasing the rest matters more than a step that failed (e.g. a context already closed).
      }
    }
  };
  const checkAborted = () => {
    if (signal?.aborted)
      throw new BrowserVoiceError('closed', 'connectBrowserVoice was aborted.', { cause: signal.reason });
  };
  try {
    checkAborted();
    let context = resolved.audioContext;
    if (context === undefined) {
      if (typeof AudioContext === 'undefined')
        throw new BrowserVoiceError('audio_unsupported', 'This browser has no AudioContext.');
      const created = new AudioContext({ latencyHint: 'interactive' });
      releases.push(() => created.close());
      context = created;
    }
    await loadWorkletModule(context, resolved.workletUrl);
    checkAborted();
    await running(context, resolved.startTimeoutMs);
    checkAborted();
    let microphone: MicrophoneCapture | undefined;
    if (resolved.microphone) {
      const stream = await openMicrophone(resolved.microphone.constraints);
      releases.push(() => {
        for (const track of stream.getTracks()) track.stop();
      });
      checkAborted();
      const { mode, muted, frameMs } = resolved.microphone;
      microphone = new MicrophoneCapture(
        context,
        stream,
        session,
        resolved.input,
        frameMs,
        !muted && mode === 'open',
      );
      const capture = microphone;
      releases.push(() => capture.release());
    }
    let speaker: SpeakerPlayback | undefined;
    if (resolved.speaker) {
      const player = new SpeakerPlayback(
        context,
        session.playback,
        resolved.output,
        resolved.speaker.destination ?? context.destination,
      );
      releases.push(() => player.release());
      const tracker = session.playback.tracker;
      if (tracker instanceof BrowserPlaybackTracker) releases.push(tracker.attach(player));
      speaker = player;
    }
    return new Voice(
      context,
      session,
      microphone,
      resolved.microphone ? resolved.microphone : undefined,
      speaker,
      resolved.speaker?.onStop,
      release,
    );
  } catch (error) {
    await release();
    throw error;
  }
}

/** Resumes `context`, waiting at most `timeoutMs` for it to run. */
async function running(context: AudioContext, timeoutMs: number): Promise<void> {
  if (context.state === 'running') return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new BrowserVoiceError(
            'audio_context_not_running',
            `The AudioContext did not start within ${timeoutMs} ms: call connectBrowserVoice from a user gesture (a click or a key press).`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    await Promise.race([context.resume(), timedOut]);
  } catch (error) {
    if (error instanceof BrowserVoiceError) throw error;
    throw new BrowserVoiceError(
      'audio_context_not_running',
      `The AudioContext could not start (it is ${context.state}); pass an open one, or none.`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
  if ((context.state as string) !== 'running')
    throw new BrowserVoiceError(
      'audio_context_not_running',
      `The AudioContext is ${context.state}, not running: call connectBrowserVoice from a user gesture.`,
    );
}

class Voice<TContext> implements BrowserVoice {
  readonly audioContext: AudioContext;
  readonly #session: RealtimeSession<TContext>;
  readonly #microphone: MicrophoneCapture | undefined;
  readonly #pushToTalk: boolean;
  readonly #speaker: SpeakerPlayback | undefined;
  readonly #release: () => Promise<void>;
  readonly #unsubscribe: (() => void)[];
  #muted: boolean;
  #talking = false;
  #lastStop: PlaybackStop | undefined;
  #microphoneError: BrowserVoiceError | undefined;
  #closing: Promise<void> | undefined;

  constructor(
    context: AudioContext,
    session: RealtimeSession<TContext>,
    microphone: MicrophoneCapture | undefined,
    micOptions:
      | {
          mode: 'open' | 'push-to-talk';
          muted: boolean;
          onEnded?: ((error: BrowserVoiceError) => void) | undefined;
        }
      | undefined,
    speaker: SpeakerPlayback | undefined,
    onStop: ((stop: PlaybackStop) => void) | undefined,
    release: () => Promise<void>,
  ) {
    this.audioContext = context;
    this.#session = session;
    this.#microphone = microphone;
    this.#pushToTalk = micOptions?.mode === 'push-to-talk';
    this.#muted = micOptions?.muted ?? false;
    this.#speaker = speaker;
    this.#release = release;
    this.#unsubscribe = [
      session.on('connection_status', (event) => {
        if (event.status === 'closed') void this.close();
      }),
    ];
    if (microphone) {
      this.#unsubscribe.push(
        microphone.onEnded(() => {
          if (this.#closing) return;
          microphone.release();
          this.#talking = false;
          const error = microphoneEndedError();
          this.#microphoneError = error;
          micOptions?.onEnded?.(error);
        }),
      );
    }
    if (speaker) {
      this.#unsubscribe.push(
        session.on('audio', (event) => speaker.push(event.itemId, event.data)),
        session.on('audio_done', (event) => speaker.end(event.itemId)),
        session.on('audio_interrupted', (event) => {
          void speaker.stop().then((playedMs) => {
            if (this.#closing) return;
            const stop: PlaybackStop = {
              responseId: event.responseId,
              itemId: event.itemId,
              heardMs: event.heardMs,
              playedMs,
            };
            this.#lastStop = stop;
            onStop?.(stop);
          });
        }),
      );
    }
  }

  get microphoneTrack(): MediaStreamTrack | undefined {
    return this.#microphone?.track;
  }

  get muted(): boolean {
    return this.#muted;
  }

  get talking(): boolean {
    return this.#talking;
  }

  get lastStop(): PlaybackStop | undefined {
    return this.#lastStop;
  }

  get microphoneError(): BrowserVoiceError | undefined {
    return this.#microphoneError;
  }

  get closed(): boolean {
    return this.#closing !== undefined;
  }

  mute(): void {
    this.#muted = true;
    this.#gate();
  }

  unmute(): void {
    this.#muted = false;
    this.#gate();
  }

  startTalking(): void {
    this.#requirePushToTalk('startTalking');
    if (this.#talking) return;
    this.#talking = true;
    if (this.#session.status === 'connected') this.#session.interrupt();
    this.#gate();
  }

  stopTalking(): void {
    this.#requirePushToTalk('stopTalking');
    if (!this.#talking) return;
    this.#talking = false;
    this.#gate();
    try {
      this.#session.commitAudio();
    } catch (error) {
      if (!(error instanceof SessionNotConnectedError)) throw error;
    }
  }

  playedMs(itemId: string): number {
    return this.#speaker?.playedMs(itemId) ?? 0;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
      await this.#release();
    })();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #gate(): void {
    if (this.#microphone && !this.#closing)
      this.#microphone.open = !this.#muted && (!this.#pushToTalk || this.#talking);
  }

  #requirePushToTalk(method: string): void {
    if (!this.#microphone || !this.#pushToTalk)
      throw new BrowserVoiceError(
        'invalid_option',
        `${method}() needs a push-to-talk microphone: connectBrowserVoice({ microphone: { mode: 'push-to-talk' } }).`,
      );
  }
}
