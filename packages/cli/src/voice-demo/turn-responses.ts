import type { RealtimeSession, RealtimeSessionEventOf } from '@parley/core';

type ResponseDone = RealtimeSessionEventOf<'response_done'>;

/**
 * The conversation's (not ephemeral) finished responses, queued as they end, so a turn's responses are read one by one
 * without missing one that ends between two reads.
 */
export class TurnResponses {
  readonly #session: RealtimeSession;
  #done: ResponseDone[] = [];
  #wake: (() => void) | undefined;

  constructor(session: RealtimeSession) {
    this.#session = session;
    session.on('response_done', (e) => {
      if (e.ephemeral) return;
      this.#done.push(e);
      this.#wake?.();
    });
  }

  /** The next response to end. */
  next(): Promise<ResponseDone> {
    const first = this.#done.shift();
    if (first) return Promise.resolve(first);
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve(this.#done.shift() as ResponseDone);
      };
    });
  }

  /**
   * The responses of one turn, up to the first that calls no function (the answer: tool calls and handoffs are
   * followed by a response of their own). `wait` bounds each wait.
   */
  async untilAnswer(
    wait: (response: Promise<ResponseDone>) => Promise<ResponseDone>,
  ): Promise<ResponseDone[]> {
    const responses: ResponseDone[] = [];
    for (;;) {
      const response = await wait(this.next());
      responses.push(response);
      const calledTools = this.#session.history.some(
        (item) => item.type === 'function_call' && item.responseId === response.responseId,
      );
      if (!calledTools || response.status !== 'completed') return responses;
    }
  }

  /** Forgets the responses that ended and were not read. */
  clear(): void {
    this.#done = [];
  }
}
