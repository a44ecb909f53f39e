import { AudioConverter, type RealtimeAudioFormat, SessionNotConnectedError } from '@parley/core';
import { streamFormatOf } from '@parley/core/internal';
import { BrowserVoiceError } from './errors.js';

/** Where the microphone's frames go: `session.sendAudio` while the session is connected. */
export interface AudioSink {
  readonly status: string;
  sendAudio(pcm: Uint8Array): void;
}

/** The microphone's defaults: the browser's echo cancellation, noise suppression and gain control, one channel. */
export const DEFAULT_MICROPHONE_CONSTRAINTS: Readonly<MediaTrackConstraints> = Object.freeze({
  echoCancellation: true,
  noiseSuppression: true,
  autoGainControl: true,
  channelCount: 1,
});

/** The report of a microphone that stopped by itself after the start. */
export function microphoneEndedError(): BrowserVoiceError {
  return new BrowserVoiceError(
    'microphone_ended',
    'The microphone stopped by itself (unplugged, its permission revoked, or ended by the system): no more audio ' +
      'goes to the session. Ask for a microphone again (a new voice, or new call audio).',
  );
}

/** Opens the microphone (`getUserMedia`), mapping the browser's refusals to {@link BrowserVoiceError} codes. */
export async function openMicrophone(constraints: MediaTrackConstraints): Promise<MediaStream> {
  const devices = globalThis.navigator?.mediaDevices;
  if (devices?.getUserMedia === undefined) {
    throw new BrowserVoiceError(
      'insecure_context',
      'navigator.mediaDevices is missing: the microphone needs a secure context (https, or http://localhost).',
    );
  }
  try {
    return await devices.getUserMedia({ audio: { ...DEFAULT_MICROPHONE_CONSTRAINTS, ...constraints } });
  } catch (error) {
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'NotAllowedError' || name === 'SecurityError') {
      throw new BrowserVoiceError(
        'microphone_permission_denied',
        'The microphone was refused. Ask the user to allow it for this site (and call connectBrowserVoice from a click).',
        { cause: error },
      );
    }
    if (name === 'NotFoundError' || name === 'OverconstrainedError') {
      throw new BrowserVoiceError(
        'microphone_not_found',
        'No microphone matches the constraints: plug one in, or relax microphone.constraints (e.g. deviceId).',
        { cause: error },
      );
    }
    throw new BrowserVoiceError(
      'microphone_unavailable',
      'The microphone could not be opened (another app may hold it); try again or pick another device.',
      { cause: error },
    );
  }
}

/**
 * The microphone's path: the `parley-capture` worklet's PCM16 frames at the context's rate, converted to the
 * session's input format, into the sink while the gate is open and the session is connected.
 */
export class MicrophoneCapture {
  readonly #node: AudioWorkletNode;
  readonly #source: MediaStreamAudioSourceNode;
  readonly #stream: MediaStream;
  readonly #converter: AudioConverter;
  readonly #sink: AudioSink;
  #open: boolean;
  #released = false;

  constructor(
    context: AudioContext,
    stream: MediaStream,
    sink: AudioSink,
    format: RealtimeAudioFormat,
    frameMs: number,
    open: boolean,
  ) {
    this.#stream = stream;
    this.#sink = sink;
    this.#open = open;
    this.#converter = new AudioConverter(
      { encoding: 'pcm16', sampleRate: context.sampleRate },
      streamFormatOf(format),
    );
    this.#source = context.createMediaStreamSource(stream);
    this.#node = new AudioWorkletNode(context, 'parley-capture', {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      channelCount: 1,
      channelCountMode: 'explicit',
      processorOptions: { frameSamples: Math.round((context.sampleRate * frameMs) / 1000) },
    });
    this.#node.port.onmessage = (event: MessageEvent<Int16Array>) => this.#frame(event.data);
    this.#source.connect(this.#node);
  }

  /** Whether frames go to the session (the gate: not muted, and talking in push-to-talk). */
  get open(): boolean {
    return this.#open;
  }

  set open(value: boolean) {
    this.#open = value;
  }

  /** The microphone's track (e.g. to show its label or watch `ended`). */
  get track(): MediaStreamTrack | undefined {
    return this.#stream.getAudioTracks()[0];
  }

  #frame(samples: Int16Array): void {
    // Frames keep flowing through the converter while the gate is shut, so the resampler's filter never joins
    // two moments of speech across a pause.
    const pcm = this.#converter.convert(
      new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength),
    );
    if (!this.#open || this.#sink.status !== 'connected' || pcm.byteLength === 0) return;
    try {
      this.#sink.sendAudio(pcm);
    } catch (error) {
      // The connection dropped within this turn of the event loop; the session reports that itself.
      if (!(error instanceof SessionNotConnectedError)) throw error;
    }
  }

  /**
   * Calls `listener` once if the track ends by itself (unplugged, permission revoked): a track the helper stops
   * fires no `ended`. Returns the function that stops listening.
   */
  onEnded(listener: () => void): () => void {
    const track = this.track;
    if (track === undefined) return () => {};
    const ended = () => {
      if (!this.#released) listener();
    };
    track.addEventListener('ended', ended, { once: true });
    return () => track.removeEventListener('ended', ended);
  }

  /** Stops the worklet and the track and disconnects the nodes. Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#node.port.onmessage = null;
    this.#node.port.postMessage({ type: 'stop' });
    this.#node.port.close();
    this.#source.disconnect();
    this.#node.disconnect();
    for (const track of this.#stream.getTracks()) track.stop();
  }
}
