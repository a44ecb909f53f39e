import {
  assistantMessage,
  ConnectionClosedError,
  MODEL_SPECIFICATION_VERSION,
  type Model,
  type ModelCapabilities,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  REALTIME_SPECIFICATION_VERSION,
  type RealtimeCapabilities,
  type RealtimeCommand,
  type RealtimeConnection,
  type RealtimeConnectOptions,
  type RealtimeEvent,
  type RealtimeModel,
  UserError,
} from '@parley/core';

/** A text model: one call per Runner turn. */
export class MyModel implements Model {
  readonly specificationVersion = MODEL_SPECIFICATION_VERSION;
  readonly provider = 'my-provider';
  readonly capabilities: ModelCapabilities = {
    streaming: true,
    tools: false,
    structuredOutput: false,
    parallelToolCalls: false,
  };

  async getResponse(request: ModelRequest, options: { signal?: AbortSignal }): Promise<ModelResponse> {
    options.signal?.throwIfAborted();
    // TODO: send request.systemInstructions, request.input, request.tools and request.modelSettings to your API,
    // passing options.signal along, and map its answer to ConversationItems.
    const text = `You said ${request.input.length} thing(s).`;
    return {
      output: [assistantMessage(text)],
      usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
  }

  async *streamResponse(
    request: ModelRequest,
    options: { signal?: AbortSignal },
  ): AsyncGenerator<ModelStreamEvent> {
    // TODO: stream from your API; yield each text delta as it arrives.
    const response = await this.getResponse(request, options);
    yield { type: 'response_started' };
    for (const item of response.output) {
      if (item.type === 'message') yield { type: 'text_delta', delta: item.content };
    }
    yield { type: 'response_done', response };
  }
}

/** One live realtime connection: closed typed commands in, normalized events out. */
export class MyRealtimeConnection implements RealtimeConnection {
  #status: 'open' | 'closed' = 'open';
  #listeners = new Set<(event: RealtimeEvent) => void>();
  #closed: Promise<void> | undefined;

  get status(): 'open' | 'closed' {
    return this.#status;
  }

  send(command: RealtimeCommand): void {
    if (this.#status === 'closed') {
      throw new ConnectionClosedError(`Cannot send "${command.type}": the connection is closed.`);
    }
    switch (command.type) {
      case 'updateSession':
      case 'appendInputAudio':
      case 'commitInputAudio':
      case 'createItem':
      case 'deleteItem':
      case 'truncateItem':
      case 'createResponse':
      case 'cancelResponse':
      case 'sendToolOutput':
      case 'appendContext': // only providers that declare contextAppends receive it
      case 'clearOutputAudio': // only providers that declare servicePlayback receive it
      case 'sendDtmf': // a key to press on the phone call your provider carries; refuse it if it carries none
      case 'sendHostedToolApproval': // only providers that declare hostedTools receive it
        // TODO: translate the command into your service's message and send it. Problems the service reports
        // later arrive as `error` events (with the command's `clientRequestId` where it has one), never as throws.
        return;
      default: {
        const unknown: never = command;
        throw new UserError(`Unknown command ${JSON.stringify(unknown)}.`, { code: 'invalid_command' });
      }
    }
  }

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Call with each event of your service, normalized (see `RealtimeEvent`). */
  protected emit(event: RealtimeEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#status = 'closed';
      // TODO: close the socket and wait for it; remove its listeners and clear your timers.
    })();
    return this.#closed;
  }
}

/** The realtime model: a factory of connections that declares what its conformance run proves. */
export class MyRealtimeModel implements RealtimeModel {
  readonly specificationVersion = REALTIME_SPECIFICATION_VERSION;
  readonly provider = 'my-provider';
  readonly capabilities: RealtimeCapabilities = {
    ephemeralResponse: false,
    messageTruncation: false,
    mutableChatContext: false,
    turnDetection: false,
    userTranscription: false,
    audioOutput: false,
    mutableInstructions: true,
    mutableTools: true,
    autoToolResponseGeneration: false,
    responseRequests: true,
  };

  async connect(options: RealtimeConnectOptions): Promise<MyRealtimeConnection> {
    options.signal?.throwIfAborted();
    // TODO: open the connection, apply options.config, and resolve once the service confirmed it. On failure,
    // release everything you opened and reject with a typed error.
    return new MyRealtimeConnection();
  }
}
