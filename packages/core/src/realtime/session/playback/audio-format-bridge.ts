import { AudioConverter } from '../../audio-formats/audio-converter.js';
import { sameStreamFormat, streamFormatOf } from '../../audio-formats/audio-stream-format.js';
import { ForwardingConnection } from '../../forwarding-connection.js';
import type {
  RealtimeAudioStreamFormat,
  RealtimeCommand,
  RealtimeConnection,
  RealtimeEvent,
  RealtimeSessionConfig,
} from '../../seam.js';

/**
 * The connection as the session sees it when the provider's audio formats (`audioFormats`) differ from the app's
 * (`inputAudioFormat` / `outputAudioFormat`): user audio is converted on its way out, assistant audio on its way in,
 * so every unit of the session, and the app, meets the app's format only (and played milliseconds are counted at
 * its rate). A connection that declares no formats, or the app's, is returned as it is: nothing on the audio path
 * changes.
 */
export function bridgeAudioFormats(
  connection: RealtimeConnection,
  config: RealtimeSessionConfig,
): RealtimeConnection {
  const declared = connection.audioFormats;
  if (declared === undefined) return connection;
  const appInput = streamFormatOf(config.inputAudioFormat);
  const appOutput = streamFormatOf(config.outputAudioFormat);
  const convertInput = !sameStreamFormat(appInput, declared.input);
  const convertOutput = !sameStreamFormat(declared.output, appOutput);
  if (!convertInput && !convertOutput) return connection;
  return new AudioFormatBridge(
    connection,
    convertInput ? new AudioConverter(appInput, declared.input) : undefined,
    convertOutput ? { from: declared.output, to: appOutput } : undefined,
  );
}

class AudioFormatBridge extends ForwardingConnection {
  /** One stream: the user's audio, across commits. */
  readonly #input: AudioConverter | undefined;
  readonly #output: { from: RealtimeAudioStreamFormat; to: RealtimeAudioStreamFormat } | undefined;
  /** The output stream of the item being spoken: a new item starts a new stream (no filter state carried over). */
  #speaking: { itemId: string; converter: AudioConverter } | undefined;

  constructor(
    inner: RealtimeConnection,
    input: AudioConverter | undefined,
    output: { from: RealtimeAudioStreamFormat; to: RealtimeAudioStreamFormat } | undefined,
  ) {
    super(inner);
    this.#input = input;
    this.#output = output;
  }

  override send(command: RealtimeCommand): void {
    if (command.type === 'appendInputAudio' && this.#input !== undefined) {
      this.inner.send({ ...command, audio: this.#input.convert(command.audio) });
      return;
    }
    this.inner.send(command);
  }

  override onEvent(listener: (event: RealtimeEvent) => void): () => void {
    if (this.#output === undefined) return this.inner.onEvent(listener);
    return this.inner.onEvent((event) =>
      listener(
        event.type === 'audio_delta' ? { ...event, audio: this.#toApp(event.itemId, event.audio) } : event,
      ),
    );
  }

  #toApp(itemId: string, audio: Uint8Array): Uint8Array {
    const output = this.#output as { from: RealtimeAudioStreamFormat; to: RealtimeAudioStreamFormat };
    if (this.#speaking?.itemId !== itemId) {
      this.#speaking = { itemId, converter: new AudioConverter(output.from, output.to) };
    }
    return this.#speaking.converter.convert(audio);
  }
}
