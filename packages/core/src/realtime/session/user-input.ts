import type { RealtimeCapabilities } from '../seam.js';
import { commitRespondsByDefault, requireResponseRequests } from './capability-strategies.js';
import type { RealtimeSessionSettings } from './options.js';
import type { ResponseCoordinator } from './response-coordinator.js';
import type { SessionState } from './session-state.js';
import type { UnacknowledgedInputs } from './unacknowledged-inputs.js';

/**
 * What the user says through the app: text messages and audio, and whether a turn asks for a response. A text
 * message asks for one unless told not to; committed audio asks for one only when the provider does not detect
 * turns itself (push-to-talk), unless told otherwise. Where the model takes its turns by itself (no
 * `responseRequests`), messages and requested responses are refused before anything is sent.
 */
export class UserInput<TContext> {
  readonly #state: SessionState<TContext>;
  readonly #coordinator: ResponseCoordinator;
  readonly #turnDetection: RealtimeSessionSettings['turnDetection'];
  readonly #capabilities: RealtimeCapabilities;
  readonly #provider: string;
  readonly #inputs: UnacknowledgedInputs;

  constructor(
    state: SessionState<TContext>,
    coordinator: ResponseCoordinator,
    turnDetection: RealtimeSessionSettings['turnDetection'],
    capabilities: RealtimeCapabilities,
    provider: string,
    inputs: UnacknowledgedInputs,
  ) {
    this.#inputs = inputs;
    this.#state = state;
    this.#coordinator = coordinator;
    this.#turnDetection = turnDetection;
    this.#capabilities = capabilities;
    this.#provider = provider;
  }

  message(text: string, respond: boolean): void {
    this.#refuseWithoutRequests('send a message');
    // The session names the item, so the provider's acknowledgement (its `item_added`) can be matched to it.
    const item = {
      type: 'message' as const,
      itemId: this.#inputs.nextItemId(),
      role: 'user' as const,
      content: [{ type: 'text' as const, text }],
    };
    this.#state.send({ type: 'createItem', item }, 'send a message');
    this.#inputs.messageSent(item);
    if (respond) this.#coordinator.request({}, 'user_input');
  }

  audio(pcm: Uint8Array, commit: boolean): void {
    this.#state.send({ type: 'appendInputAudio', audio: pcm }, 'send audio');
    if (commit) this.commit(undefined);
  }

  commit(respond: boolean | undefined): void {
    if (respond === true) this.#refuseWithoutRequests('ask for a response');
    this.#state.send({ type: 'commitInputAudio' }, 'commit audio');
    if (respond ?? commitRespondsByDefault(this.#turnDetection, this.#capabilities)) {
      this.#coordinator.request({}, 'user_input');
    }
  }

  /** Closed and not-connected errors first (as for any command), then the missing capability. */
  #refuseWithoutRequests(action: string): void {
    this.#state.connectionFor(action);
    requireResponseRequests(this.#capabilities, this.#provider, action);
  }
}
