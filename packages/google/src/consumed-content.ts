/**
 * What a resumption handle holds of the content the session sent, for `resume_token.contentCommands`. The service
 * says which of the socket's client messages a handle holds (`lastConsumedClientMessageIndex`, the `setup` being
 * message 0); this maps that index to the number of content commands whose messages were written up to it. Counts only
 * change with content, so it keeps one entry per content message, not one per audio frame, and forgets the entries a
 * handle has passed.
 */
export class ConsumedContent {
  /** Content commands written on the seam connection. */
  #written = 0;
  /** Client messages written on the current socket, `setup` included. */
  #messages = 1;
  /** `[message index, content commands written up to and including it]`, ascending. */
  #marks: [number, number][] = [[0, 0]];

  /**
   * A new socket's `setup` was written (the first socket's is counted from the start). `held`: the content commands
   * the session it resumes holds.
   */
  socketStarted(held: number): void {
    this.#messages = 1;
    this.#marks = [[0, held]];
  }

  /** A client message went out on the current socket, carrying `contentCommands` content commands. */
  messageWritten(contentCommands: number): void {
    const index = this.#messages++;
    if (contentCommands === 0) return;
    this.#written += contentCommands;
    this.#marks.push([index, this.#written]);
  }

  /**
   * The content commands a handle holds whose state ends at client message `index`; without an index, only what the
   * socket's session held when it started (nothing it was sent can be shown to be in it).
   */
  held(index: number | undefined): number {
    const marks = this.#marks;
    if (index === undefined || !Number.isSafeInteger(index) || index < 0)
      return (marks[0] as [number, number])[1];
    let at = 0;
    while (at + 1 < marks.length && (marks[at + 1] as [number, number])[0] <= index) at++;
    if (at > 0) this.#marks = marks.slice(at);
    return (this.#marks[0] as [number, number])[1];
  }
}
