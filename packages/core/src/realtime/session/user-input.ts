import type { RealtimeCapabilities } from '../seam.js';
import {
  commitStrategy,
  contentDuringResponseStrategy,
  requireResponseRequests,
} from './capability-strategies.js';
import { SessionNotConnectedError } from './errors.js';
import type { UnacknowledgedInputs } from './history/unacknowledged-inputs.js';
import type { RealtimeSessionSettings } from './options.js';
import type { ResponseCoordinator } from './responses/response-coordinator.js';
import type { SessionState } from './session-state.js';

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
  readonly #holdDuringResponse: boolean;

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
    this.#holdDuringResponse = contentDuringResponseStrategy(capabilities) === 'hold';
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
    // Where new content would interrupt the model, a message sent during a response waits for its end (and goes out
    // before the response request it comes with).
    const send = () => {
      this.#state.send({ type: 'createItem', item }, 'send a message');
      this.#inputs.messageSent(item);
    };
    const sendLater = () => {
      try {
        send();
      } catch (error) {
        // A lost connection is reported by its own path (and the lost turn carries the message over).
        if (!(error instanceof SessionNotConnectedError)) this.#state.reportError('session', error);
      }
    };
    if (this.#holdDuringResponse && this.#coordinator.holdContent(sendLater)) this.#inputs.held(item);
    else send();
    if (respond) this.#coordinator.request({}, 'user_input');
  }

  audio(pcm: Uint8Array, commit: boolean): void {
    this.#state.send({ type: 'appendInputAudio', audio: pcm }, 'send audio');
    if (commit) this.commit(undefined);
  }

  commit(respond: boolean | undefined): void {
    const strategy = commitStrategy(respond, this.#turnDetection, this.#capabilities, this.#provider);
    if (strategy.refuseWithoutRequests) this.#refuseWithoutRequests('ask for a response');
    this.#state.send({ type: 'commitInputAudio' }, 'commit audio');
    if (strategy.warning) this.#state.emit({ type: 'warning', ...strategy.warning });
    if (strategy.request) this.#coordinator.request({}, 'user_input');
  }

  /** Closed and not-connected errors first (as for any command), then the missing capability. */
  #refuseWithoutRequests(action: string): void {
    this.#state.connectionFor(action);
    requireResponseRequests(this.#capabilities, this.#provider, action);
  }
}
