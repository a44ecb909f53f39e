import type {
  Clock,
  RealtimeCommand,
  RealtimeItem,
  RealtimeModel,
  RealtimeSessionConfig,
} from '@parley/core';
import type { ScriptedOutput } from '@parley/core/internal';
import { type HarnessTransport, TransportFaults } from '@parley/transport/testing';
import { FastForwardClock } from '../shared/fast-forward-clock.js';
import { SimulatorHarnessBase } from '../shared/harness-base.js';
import { HARNESS_OPTIONS, HARNESS_SIMULATOR_OPTIONS } from '../shared/option-keys.js';
import { type BrainOutput, type BrainResponse, createHold, type Hold } from './brain.js';
import {
  clientEventToCommand,
  conversationToSeamItems,
  seamCommandsOf,
  sessionToSeamConfig,
} from './seam-view.js';
import type { SimulatorConnection } from './sim-connection.js';
import {
  type RealtimeSimulator,
  type RealtimeSimulatorOptions,
  type SimulatorRefusal,
  startRealtimeSimulator,
} from './simulator.js';

export type { ScriptedOutput };

/**
 * What the simulated model does in one response; `hold` keeps it active until `finishResponse()`; `announceEarly`
 * (set by `respondAnnouncingItemsEarly()`): each output item's `conversation.item.added` comes before its
 * `response.output_item.added`.
 */
export interface ScriptedResponse {
  output: ScriptedOutput[];
  hold?: boolean;
  announceEarly?: boolean;
}

/** Options of {@link createSimulatorHarness}. */
export interface SimulatorHarnessOptions {
  /**
   * Builds the adapter under test, pointed at the simulator. Give the model `transport`'s `WebSocket` and
   * `webSocketStyle` (the runtime's default WebSocket, wrapped) so that the harness can fault its socket
   * (`connectionStopsSilently`, `failNextWrite`); where the adapter opens its own sockets, those scenarios are skipped.
   */
  createModel(simulator: RealtimeSimulator, transport: HarnessTransport): RealtimeModel;
  /**
   * Simulator options (the brain is the harness's). Transcription is on by default; responses are paced (the
   * simulator's default) on a `FastForwardClock`, so they take virtual time and no test sleeps.
   */
  simulator?: Omit<RealtimeSimulatorOptions, 'brain'>;
  /**
   * The harness's `sessionClock`: a clock that moves only when told to (`new ManualClock()` from `@parley/mock`),
   * which the conformance scenarios that test the session's own timeouts give the session and move themselves. Not
   * the simulator's clock. Without it those scenarios run on the system clock.
   */
  sessionClock?: Clock & { advance(ms: number): Promise<void> };
}

/**
 * Drives an adapter through the Realtime simulator the way `@parley/conformance`'s `RealtimeHarness` describes:
 * scripted responses, server-side speech, errors, refusals and dropped connections; and what the simulator
 * received, read back as seam commands. It satisfies `RealtimeHarness` structurally, so an adapter's conformance
 * test is `defineConformanceSuite('openai', () => createSimulatorHarness({ createModel }))`.
 */
export class SimulatorHarness extends SimulatorHarnessBase<RealtimeSimulator> {
  readonly #queue: ScriptedResponse[] = [];
  readonly #holds: Hold[] = [];
  readonly #msPerChar: number;

  /**
   * `msPerChar` must match the simulator's (it places `holdAfterMs` holds in messages without `audioMs`); `faults`
   * is the transport `model` was given (without it, the harness has no transport faults); `sessionClock` as in
   * {@link SimulatorHarnessOptions}.
   */
  constructor(
    simulator: RealtimeSimulator,
    model: RealtimeModel,
    msPerChar = 50,
    faults?: TransportFaults,
    sessionClock?: Clock & { advance(ms: number): Promise<void> },
  ) {
    super(simulator, model, faults, sessionClock);
    this.#msPerChar = msPerChar;
    simulator.brain = () => this.#nextReply();
  }

  #nextReply(): BrainResponse {
    const response = this.#queue.shift();
    if (!response) return 'OK.';
    const early = response.announceEarly ? { announceEarly: true } : {};
    const outputs: BrainOutput[] = response.output.map((output): BrainOutput => {
      if (output.type === 'message') {
        return {
          type: 'message',
          text: this.#messageText(output),
          ...(output.audioMs !== undefined && { audioMs: output.audioMs }),
          ...(output.transcriptDeltas !== undefined && { transcriptDeltas: output.transcriptDeltas }),
          ...early,
        };
      }
      return {
        type: 'function_call',
        name: output.name,
        arguments: output.arguments ?? {},
        ...(output.callId !== undefined && { callId: output.callId }),
        ...early,
      };
    });
    if (response.hold) {
      const hold = createHold('finishResponse');
      this.#holds.push(hold);
      outputs.push({ type: 'hold', hold });
    }
    return outputs;
  }

  /** The message's text, with a hold where its audio passes `holdAfterMs` (audio is spread evenly over the text). */
  #messageText(output: Extract<ScriptedOutput, { type: 'message' }>): string | (string | Hold)[] {
    if (output.holdAfterMs === undefined) return output.text;
    const total = output.audioMs ?? output.text.length * this.#msPerChar;
    const at = Math.min(output.text.length, Math.ceil((output.holdAfterMs / total) * output.text.length));
    const hold = createHold('holdAfterMs');
    this.#holds.push(hold);
    return [output.text.slice(0, at), hold, output.text.slice(at)];
  }

  #latest(): SimulatorConnection {
    const connection = this.simulator.connections.at(-1);
    if (!connection) throw new Error('The adapter has not connected to the simulator yet.');
    return connection;
  }

  /** Queues what the model does for the next responses, in order. */
  async respondWith(...responses: ScriptedResponse[]): Promise<void> {
    this.#queue.push(...responses);
  }

  /**
   * Queues responses whose items the service announces early: each `conversation.item.added` before the
   * `response.output_item.added` that links the item to its response, in an out-of-band response too.
   */
  async respondAnnouncingItemsEarly(...responses: ScriptedResponse[]): Promise<void> {
    this.#queue.push(...responses.map((response) => ({ ...response, announceEarly: true })));
  }

  /** Continues the response held by `hold: true` or a message's `holdAfterMs`, in the order they were scripted. */
  async finishResponse(): Promise<void> {
    const hold = this.#holds.shift();
    if (!hold) throw new Error('No response is held open: script one with { hold: true } first.');
    hold.release();
  }

  /** Server VAD reports speech started (and cancels the active response). */
  async userStartsSpeaking(): Promise<void> {
    this.#latest().startSpeech();
  }

  /** Server VAD reports speech stopped: commit, transcription, automatic response. */
  async userStopsSpeaking(options: { transcript?: string } = {}): Promise<void> {
    this.#latest().stopSpeech(options.transcript === undefined ? {} : { transcript: options.transcript });
  }

  /**
   * The service commits the user's audio as a user message and sends the start of its transcript (`partial`, a
   * transcription delta), then the connection drops (TCP) before `...transcription.completed`.
   */
  async cutMidTranscription(partial: string): Promise<void> {
    const connection = this.#latest();
    const itemId = 'item_cut_mid_transcription';
    const item = {
      id: itemId,
      object: 'realtime.item',
      type: 'message',
      role: 'user',
      status: 'completed',
      content: [{ type: 'input_audio', transcript: null }],
    };
    connection.send({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: itemId });
    connection.send({ type: 'conversation.item.added', previous_item_id: null, item });
    connection.send({ type: 'conversation.item.done', previous_item_id: null, item });
    connection.send({
      type: 'conversation.item.input_audio_transcription.delta',
      item_id: itemId,
      content_index: 0,
      delta: partial,
    });
    await this.disconnect();
  }

  /** An `error` event answering no request. */
  async emitError(error: { code: string; message: string }): Promise<void> {
    this.#latest().send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code: error.code,
        message: error.message,
        param: null,
        event_id: null,
      },
    });
  }

  /**
   * The failure the service documents as ending the session: an `error` the adapter reports as fatal, then the
   * socket closes (code 4000).
   */
  async failFatally(): Promise<{ code: string }> {
    const connection = this.#latest();
    const code = 'beta_api_shape_disabled';
    connection.send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code,
        message: 'The beta Realtime API shape is no longer supported. Use the GA interface.',
        param: null,
        event_id: null,
      },
    });
    connection.close(4000, code);
    await connection.closed;
    return { code };
  }

  /** The next `response.create` is refused with this error, echoing its `event_id`. */
  async refuseNextResponse(error: SimulatorRefusal): Promise<void> {
    this.simulator.refuseNextResponse({ echoEventId: true, ...error });
  }

  /**
   * The next `response.create` is refused as the service refuses a collision (its code), naming no request
   * (`event_id: null`): the harder case for a client, as when the refused request carried no `event_id`.
   */
  async collideNextResponse(): Promise<void> {
    this.simulator.refuseNextResponse({
      code: 'conversation_already_has_active_response',
      message: 'Conversation already has an active response in progress.',
      echoEventId: false,
    });
  }

  /** Drops the latest connection (TCP, no closing handshake). */
  async disconnect(): Promise<void> {
    const connection = this.#latest();
    connection.terminate();
    await connection.closed;
  }

  protected commandOfFrame(frame: unknown): RealtimeCommand['type'] | undefined {
    return clientEventToCommand(frame)?.type;
  }

  protected receivedCommands(): RealtimeCommand[] {
    return this.simulator.connections.flatMap((connection) => seamCommandsOf(connection.clientEvents));
  }

  /** The latest connection's effective session, in the seam's shape. */
  async sessionConfig(): Promise<RealtimeSessionConfig> {
    return sessionToSeamConfig(this.#latest().session);
  }

  /** The latest connection's conversation (what the model remembers), as seam items. */
  async conversation(): Promise<readonly RealtimeItem[]> {
    return conversationToSeamItems(this.#latest().conversation.items);
  }

  /** Resolves once the latest connection is closed. */
  waitForClientClose(options: { timeoutMs?: number } = {}): Promise<void> {
    const connection = this.#latest();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('The adapter did not close its connection in time.')),
        options.timeoutMs ?? 2000,
      );
      void connection.closed.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Closes the simulator. */
  async dispose(): Promise<void> {
    for (const hold of this.#holds) hold.release();
    await this.simulator.close();
  }
}

/** Starts a simulator (with input transcription on) and the adapter under test, as one harness. */
export async function createSimulatorHarness(options: SimulatorHarnessOptions): Promise<SimulatorHarness> {
  HARNESS_OPTIONS.check(options);
  if (options.simulator) HARNESS_SIMULATOR_OPTIONS.check(options.simulator, 'simulator');
  const simulator = await startRealtimeSimulator({
    session: { audio: { input: { transcription: { model: 'whisper-1' } } } },
    clock: new FastForwardClock(),
    ...options.simulator,
  });
  const faults = await TransportFaults.create();
  return new SimulatorHarness(
    simulator,
    options.createModel(simulator, faults.transport),
    options.simulator?.msPerChar,
    faults,
    options.sessionClock,
  );
}
