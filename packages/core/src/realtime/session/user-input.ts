import type { RealtimeCapabilities } from '../seam.js';
import { turnDetectionStrategy } from './capability-strategies.js';
import type { RealtimeSessionSettings } from './options.js';
import type { ResponseCoordinator } from './response-coordinator.js';
import type { SessionState } from './session-state.js';

/**
 * What the user says through the app: text messages and audio, and whether a turn asks for a reply. A text
 * message asks for one unless told not to; committed audio asks for one only when the provider does not detect
 * turns itself (push-to-talk), unless told otherwise.
 */
export class UserInput<TContext> {
  readonly #state: SessionState<TContext>;
  readonly #coordinator: ResponseCoordinator;
  readonly #turnDetection: RealtimeSessionSettings['turnDetection'];
  readonly #capabilities: RealtimeCapabilities;

  constructor(
    state: SessionState<TContext>,
    coordinator: ResponseCoordinator,
    turnDetection: RealtimeSessionSettings['turnDetection'],
    capabilities: RealtimeCapabilities,
  ) {
    this.#state = state;
    this.#coordinator = coordinator;
    this.#turnDetection = turnDetection;
    this.#capabilities = capabilities;
  }

  message(text: string, respond: boolean): void {
    this.#state.send(
      { type: 'createItem', item: { type: 'message', role: 'user', content: [{ type: 'text', text }] } },
      'send a message',
    );
    if (respond) this.#coordinator.request({}, 'user_input');
  }

  audio(pcm: Uint8Array, commit: boolean): void {
    this.#state.send({ type: 'appendInputAudio', audio: pcm }, 'send audio');
    if (commit) this.commit(undefined);
  }

  commit(respond: boolean | undefined): void {
    this.#state.send({ type: 'commitInputAudio' }, 'commit audio');
    if (respond ?? !turnDetectionStrategy.active(this.#turnDetection, this.#capabilities)) {
      this.#coordinator.request({}, 'user_input');
    }
  }
}
