import { type RealtimeAudioFormat, RealtimePlaybackTracker, type RealtimeSession } from '@parley/core';
import { optionKeys } from '@parley/core/internal';
import { BrowserVoiceError } from './errors.js';
import type { PlaybackStop } from './speaker.js';

/** The microphone's options. */
export interface MicrophoneOptions {
  /**
   * Merged over the defaults `{ echoCancellation: true, noiseSuppression: true, autoGainControl: true,
   * channelCount: 1 }` and passed to `getUserMedia({ audio })`, e.g. `{ deviceId: { exact: id } }`.
   */
  constraints?: MediaTrackConstraints;
  /**
   * `'open'` (the default): audio flows while not muted, and the provider's turn detection decides the turns.
   * `'push-to-talk'`: audio flows only between `startTalking()` and `stopTalking()`, which commits the turn
   * (run the session with `turnDetection: null`).
   */
  mode?: 'open' | 'push-to-talk';
  /** Start muted. Default `false`. */
  muted?: boolean;
  /** Length of each frame sent to the session, 10–100 ms. Default 20. */
  frameMs?: number;
  /**
   * Called once if the microphone stops by itself (unplugged, its permission revoked, ended by the system), with a
   * `BrowserVoiceError` `microphone_ended`. The helper has released it by then; the session and the speaker go on
   * (close them, or connect a new voice to ask for the microphone again).
   */
  onEnded?: (error: BrowserVoiceError) => void;
}

/** The speaker's options. */
export interface SpeakerOptions {
  /** Where the assistant's audio goes. Default the context's `destination`. */
  destination?: AudioNode;
  /** Called after a barge-in stopped the speaker, with what it had played. */
  onStop?: (stop: PlaybackStop) => void;
}

/** Options of {@link connectBrowserVoice}. */
export interface BrowserVoiceOptions<TContext = unknown> {
  /**
   * The session to talk to. With a speaker, create it with `playbackTracker: new BrowserPlaybackTracker()` (the
   * speaker's live position) or a `ReportedPlaybackTracker` (its reports only).
   */
  session: RealtimeSession<TContext>;
  /** The microphone, or `false` for none (a listen-only page). Default `{}`. */
  microphone?: MicrophoneOptions | false;
  /** The speaker, or `false` for none (the app plays the `audio` events itself). Default `{}`. */
  speaker?: SpeakerOptions | false;
  /** An `AudioContext` of the app's; it stays open on `close()`. Default: one of the helper's, closed with it. */
  audioContext?: AudioContext;
  /**
   * The URL of the worklet module (the text of `workletSource()` served as JavaScript), for pages whose Content
   * Security Policy refuses `blob:` workers. Default: a Blob URL of the bundled source.
   */
  workletUrl?: string;
  /** How long the `AudioContext` may take to start running. Default 5000 ms. */
  startTimeoutMs?: number;
  /** Aborts the start (e.g. the user left the page while the permission prompt was open). */
  signal?: AbortSignal;
}

const OPTIONS = optionKeys<BrowserVoiceOptions>('BrowserVoiceOptions', {
  session: true,
  microphone: true,
  speaker: true,
  audioContext: true,
  workletUrl: true,
  startTimeoutMs: true,
  signal: true,
});
const MICROPHONE = optionKeys<MicrophoneOptions>('MicrophoneOptions', {
  constraints: true,
  mode: true,
  muted: true,
  frameMs: true,
  onEnded: true,
});
const SPEAKER = optionKeys<SpeakerOptions>('SpeakerOptions', { destination: true, onStop: true });

/** The options with defaults applied. */
export interface ResolvedBrowserVoiceOptions<TContext> {
  session: RealtimeSession<TContext>;
  microphone:
    | (Required<Omit<MicrophoneOptions, 'constraints' | 'onEnded'>> & {
        constraints: MediaTrackConstraints;
        onEnded: MicrophoneOptions['onEnded'];
      })
    | undefined;
  speaker: SpeakerOptions | undefined;
  input: RealtimeAudioFormat;
  output: RealtimeAudioFormat;
  audioContext: AudioContext | undefined;
  workletUrl: string | undefined;
  startTimeoutMs: number;
  signal: AbortSignal | undefined;
}

function invalid(message: string): BrowserVoiceError {
  return new BrowserVoiceError('invalid_option', message);
}

function object(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Checks every option before anything is opened; unknown keys throw `UnknownOptionError` (`unknown_option`). */
export function resolveOptions<TContext>(
  options: BrowserVoiceOptions<TContext>,
): ResolvedBrowserVoiceOptions<TContext> {
  if (!object(options)) throw invalid('connectBrowserVoice(options) needs an object: { session, … }.');
  OPTIONS.check(options);
  const { session } = options;
  if (
    !object(session) ||
    typeof session.on !== 'function' ||
    !object(session.playback) ||
    !object(session.audioFormats)
  ) {
    throw invalid('connectBrowserVoice needs `session`: a RealtimeSession from @parley/core.');
  }
  let microphone: ResolvedBrowserVoiceOptions<TContext>['microphone'];
  if (options.microphone !== false) {
    const mic = options.microphone ?? {};
    if (!object(mic)) throw invalid('`microphone` is an object of options, or false for none.');
    MICROPHONE.check(mic, 'microphone');
    const mode = mic.mode ?? 'open';
    if (mode !== 'open' && mode !== 'push-to-talk')
      throw invalid(`microphone.mode is 'open' or 'push-to-talk', got ${String(mode)}.`);
    const frameMs = mic.frameMs ?? 20;
    if (typeof frameMs !== 'number' || !(frameMs >= 10 && frameMs <= 100))
      throw invalid(`microphone.frameMs is a number of milliseconds from 10 to 100, got ${String(frameMs)}.`);
    if (mic.constraints !== undefined && !object(mic.constraints))
      throw invalid('microphone.constraints is a MediaTrackConstraints object.');
    if (mic.onEnded !== undefined && typeof mic.onEnded !== 'function')
      throw invalid('microphone.onEnded is a function.');
    microphone = {
      mode,
      frameMs,
      muted: mic.muted === true,
      constraints: mic.constraints ?? {},
      onEnded: mic.onEnded as MicrophoneOptions['onEnded'],
    };
  }
  let speaker: SpeakerOptions | undefined;
  if (options.speaker !== false) {
    speaker = options.speaker ?? {};
    if (!object(speaker)) throw invalid('`speaker` is an object of options, or false for none.');
    SPEAKER.check(speaker, 'speaker');
    if (speaker.onStop !== undefined && typeof speaker.onStop !== 'function')
      throw invalid('speaker.onStop is a function.');
    if (session.playback.tracker instanceof RealtimePlaybackTracker)
      throw invalid(
        'The session guesses playback on a clock; the speaker reports what was heard. Create the session with ' +
          'playbackTracker: new BrowserPlaybackTracker() (or pass speaker: false and play the audio yourself).',
      );
  }
  // The formats the app's side of the session speaks (its config's, or PCM16): the helper converts to and from them.
  const { input, output } = session.audioFormats;
  const startTimeoutMs = options.startTimeoutMs ?? 5000;
  if (typeof startTimeoutMs !== 'number' || !(startTimeoutMs > 0))
    throw invalid(`startTimeoutMs is a positive number of milliseconds, got ${String(startTimeoutMs)}.`);
  if (options.workletUrl !== undefined && typeof options.workletUrl !== 'string')
    throw invalid('workletUrl is a URL string.');
  return {
    session,
    microphone,
    speaker,
    input,
    output,
    audioContext: options.audioContext,
    workletUrl: options.workletUrl,
    startTimeoutMs,
    signal: options.signal,
  };
}
