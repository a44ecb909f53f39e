import { BrowserVoiceError } from './errors.js';
import { microphoneEndedError, openMicrophone } from './microphone.js';

/** Options of {@link openCallAudio}. */
export interface CallAudioOptions {
  /** The microphone: `constraints` (merged over the helper's defaults), `muted` at the start, `onEnded`. */
  microphone?: {
    constraints?: MediaTrackConstraints;
    muted?: boolean;
    /** Called once if the microphone stops by itself (unplugged, permission revoked): `microphone_ended`. */
    onEnded?: (error: BrowserVoiceError) => void;
  };
  /** The element the call plays in. Default a new `Audio()` of the helper's (not in the page). */
  speaker?: HTMLAudioElement;
  /** Aborts the start (e.g. the user left while the permission prompt was open). */
  signal?: AbortSignal;
}

/**
 * The audio of a WebRTC call, whose peer connection carries it both ways: the microphone's track to send, and an
 * element that plays each call's remote track. Plug it into the model, e.g.
 * `new OpenAIRealtimeWebRTCModel({ clientSecret, inputTrack: audio.inputTrack, onRemoteAudio: audio.play })`.
 */
export interface CallAudio {
  /** The microphone's track: the model's `inputTrack`. */
  readonly inputTrack: MediaStreamTrack;
  /** Plays a call's remote audio track (the model's `onRemoteAudio`); a new call's track replaces the last. */
  readonly play: (track: { readonly kind: string }) => void;
  /** The element the call plays in. */
  readonly speaker: HTMLAudioElement;
  /** Whether the microphone is muted (the call carries silence; the track stays open, so unmuting is instant). */
  readonly muted: boolean;
  /** Why the microphone stopped by itself (`microphone_ended`), once it did. */
  readonly microphoneError: BrowserVoiceError | undefined;
  readonly closed: boolean;
  mute(): void;
  unmute(): void;
  /** Stops the microphone and the element. Idempotent; the session and its call stay yours to close. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Opens the microphone (through the browser's echo cancellation, noise suppression and gain control) and an audio
 * element for a WebRTC call. Call it from a user gesture (a click) so the browser lets the call's audio play. Fails
 * with a {@link BrowserVoiceError} (`microphone_permission_denied`, `microphone_not_found`, …), having released
 * what it opened.
 */
export async function openCallAudio(options: CallAudioOptions = {}): Promise<CallAudio> {
  const { signal } = options;
  const aborted = () =>
    new BrowserVoiceError('closed', 'openCallAudio was aborted.', { cause: signal?.reason });
  if (signal?.aborted) throw aborted();
  const stream = await openMicrophone(options.microphone?.constraints ?? {});
  const track = stream.getAudioTracks()[0];
  if (signal?.aborted || track === undefined) {
    for (const t of stream.getTracks()) t.stop();
    if (track === undefined)
      throw new BrowserVoiceError('microphone_unavailable', 'The microphone gave no audio track.');
    throw aborted();
  }
  return new Call(
    track,
    options.speaker ?? new Audio(),
    options.microphone?.muted === true,
    options.microphone?.onEnded,
  );
}

class Call implements CallAudio {
  readonly inputTrack: MediaStreamTrack;
  readonly speaker: HTMLAudioElement;
  readonly play = (remote: { readonly kind: string }): void => {
    if (this.#closing) return;
    this.speaker.srcObject = new MediaStream([remote as MediaStreamTrack]);
    // Called from the connect that a click started: the page's user activation lets it play.
    void this.speaker.play().catch(() => {});
  };
  #microphoneError: BrowserVoiceError | undefined;
  #closing: Promise<void> | undefined;
  readonly #stopListening: () => void;

  constructor(
    track: MediaStreamTrack,
    speaker: HTMLAudioElement,
    muted: boolean,
    onEnded: ((error: BrowserVoiceError) => void) | undefined,
  ) {
    this.inputTrack = track;
    this.speaker = speaker;
    speaker.autoplay = true;
    track.enabled = !muted;
    const ended = () => {
      if (this.#closing || this.#microphoneError) return;
      this.#microphoneError = microphoneEndedError();
      onEnded?.(this.#microphoneError);
    };
    track.addEventListener('ended', ended);
    this.#stopListening = () => track.removeEventListener('ended', ended);
  }

  get muted(): boolean {
    return !this.inputTrack.enabled;
  }

  get microphoneError(): BrowserVoiceError | undefined {
    return this.#microphoneError;
  }

  get closed(): boolean {
    return this.#closing !== undefined;
  }

  mute(): void {
    this.inputTrack.enabled = false;
  }

  unmute(): void {
    this.inputTrack.enabled = true;
  }

  close(): Promise<void> {
    this.#closing ??= Promise.resolve().then(() => {
      this.#stopListening();
      this.inputTrack.stop();
      this.speaker.pause();
      this.speaker.srcObject = null;
    });
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
