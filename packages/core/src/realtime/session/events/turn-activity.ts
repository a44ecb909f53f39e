import type { Clock } from '../../../clock.js';
import { EXPECTED_RESPONSE_GRACE_MS } from '../../../constants.js';
import type { RealtimeEvent } from '../../seam.js';

/**
 * What the provider's events say about the current turn, for deciding when a connection may be recycled:
 * responses that started and have not ended (either conversation), whether the user is speaking, and whether
 * the provider is about to answer by itself. One instance per connection (`reset()` between them).
 */
export class TurnActivity {
  readonly #clock: Clock;
  readonly #autoToolResponse: boolean;
  /** Created on first use: an idle session holds none. */
  #active: Set<string> | undefined;
  #speaking = false;
  #expectingSince: number | undefined;

  constructor(clock: Clock, autoToolResponseGeneration: boolean) {
    this.#clock = clock;
    this.#autoToolResponse = autoToolResponseGeneration;
  }

  /** Responses that started and have not ended, oldest first. */
  get activeResponseIds(): string[] {
    return this.#active ? [...this.#active] : [];
  }

  /** `true` while nothing suggests a turn is under way. */
  get quiet(): boolean {
    const expecting =
      this.#expectingSince !== undefined &&
      this.#clock.now() - this.#expectingSince < EXPECTED_RESPONSE_GRACE_MS;
    return (this.#active?.size ?? 0) === 0 && !this.#speaking && !expecting;
  }

  observe(event: RealtimeEvent): void {
    switch (event.type) {
      case 'response_started':
        this.#active ??= new Set<string>();
        this.#active.add(event.responseId);
        this.#expectingSince = undefined;
        return;
      case 'response_done':
        this.#active?.delete(event.responseId);
        return;
      case 'input_speech_started':
        this.#speaking = true;
        return;
      case 'input_speech_stopped':
        this.#speaking = false;
        this.#expectingSince = this.#clock.now();
        return;
      case 'item_added':
        if (this.#autoToolResponse && event.item.type === 'function_call_output') {
          this.#expectingSince = this.#clock.now();
        }
        return;
      default:
        return;
    }
  }

  reset(): void {
    this.#active?.clear();
    this.#speaking = false;
    this.#expectingSince = undefined;
  }
}
