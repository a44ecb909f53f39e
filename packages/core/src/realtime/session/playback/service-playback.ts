/**
 * Where the service plays the audio (`servicePlayback`: a WebRTC call, a phone line): which responses it is playing
 * to the listener, as its `output_audio_started` / `output_audio_stopped` / `output_audio_cleared` events say. A
 * response stays audible while the service plays it, even when the session received none of its audio (WebRTC
 * carries it on a media track) and even after it finished generating.
 */
export class ServicePlaybackState {
  /** Created on first use. */
  #playing: Set<string> | undefined;
  /** The service said it is playing without naming the response. */
  #unnamed = false;

  /** The service started playing `responseId`'s audio (or some audio, unnamed). */
  started(responseId: string | undefined): void {
    if (responseId === undefined) {
      this.#unnamed = true;
      return;
    }
    this.#playing ??= new Set();
    this.#playing.add(responseId);
  }

  /** The service finished playing (`responseId`'s audio, or all of it when unnamed). */
  stopped(responseId: string | undefined): void {
    if (responseId === undefined) this.clear();
    else this.#playing?.delete(responseId);
    if (this.#playing?.size === 0) this.#unnamed = false;
  }

  /** Nothing plays any more (a clear, or the connection is gone). */
  clear(): void {
    this.#playing?.clear();
    this.#unnamed = false;
  }

  /** The responses the service is playing, by id. */
  get responses(): readonly string[] {
    return this.#playing === undefined ? [] : [...this.#playing];
  }

  /** Whether the service is playing anything. */
  get playing(): boolean {
    return this.#unnamed || (this.#playing?.size ?? 0) > 0;
  }
}
