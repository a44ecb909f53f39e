/**
 * What the session sent for the conversation that the provider has not acknowledged: tool outputs (by call id)
 * whose write failed because the connection was going away. Their outputs stay in the history, so a reconnect
 * replays them; the lost turn names their calls, since the follow-up response they were waiting for never came.
 * Kept per connection: drained by the lost-turn report, cleared with the connection.
 */
export class UnacknowledgedInputs {
  /** Created on first use. */
  #outputs: Set<string> | undefined;

  /** The output of `callId` could not be written: the connection was lost under it. */
  outputNotSent(callId: string): void {
    this.#outputs ??= new Set();
    this.#outputs.add(callId);
  }

  /** The call ids of outputs not acknowledged, in the order they were sent; forgets them. */
  drainOutputs(): string[] {
    const callIds = [...(this.#outputs ?? [])];
    this.#outputs?.clear();
    return callIds;
  }

  clear(): void {
    this.#outputs?.clear();
  }
}
