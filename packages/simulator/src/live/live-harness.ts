import type {
  ContextAppendKind,
  RealtimeCommand,
  RealtimeItem,
  RealtimeModel,
  RealtimeSessionConfig,
} from '@parley/core';
import type { LiveSessionResource } from '@parley/openai/wire';
import { decodeBase64, isPlainObject } from '@parley/openai/wire';
import { type HarnessTransport, TransportFaults } from '@parley/transport/testing';
import { SimulatorHarnessBase } from '../shared/harness-base.js';
import { LIVE_HARNESS_OPTIONS } from '../shared/option-keys.js';
import { speechAudio } from '../shared/sim-audio.js';
import type { LiveReaction } from './live-brain.js';
import type { LiveSimulatorSession } from './live-sim-session.js';
import { type LiveSimulator, type LiveSimulatorOptions, startLiveSimulator } from './live-simulator.js';

/** Options of {@link createLiveSimulatorHarness}. */
export interface LiveSimulatorHarnessOptions {
  /**
   * Builds the adapter under test, pointed at the simulator. Give the model `transport`'s `WebSocket` and
   * `webSocketStyle` so that the harness can fault its socket (`connectionStopsSilently`, `failNextWrite`).
   */
  createModel(simulator: LiveSimulator, transport: HarnessTransport): RealtimeModel;
  /** Simulator options. */
  simulator?: LiveSimulatorOptions;
}

/** The harness's scripted outputs (the conformance kit's `HarnessResponse`, structurally). */
export interface LiveHarnessResponse {
  output: readonly ({ type: 'message'; text: string } | { type: 'function_call'; name: string })[];
  hold?: boolean;
}

const APPEND_KIND: Record<string, ContextAppendKind> = {
  'session.instructions.append': 'instruction',
  'session.thinking.append': 'thought',
  'session.commentary.append': 'commentary',
};

/** One GPT-Live client event as the seam command it stands for (`undefined`: none, e.g. `session.start`). */
function liveEventToCommand(event: unknown): RealtimeCommand | undefined {
  if (!isPlainObject(event) || typeof event.type !== 'string') return undefined;
  const kind = APPEND_KIND[event.type];
  if (kind) {
    return {
      type: 'appendContext',
      kind,
      text: String(event.content),
      clientRequestId: String(event.event_id),
      ...(typeof event.delegation_id === 'string' && { delegationId: event.delegation_id }),
    };
  }
  switch (event.type) {
    case 'session.input_audio.append':
      return { type: 'appendInputAudio', audio: decodeBase64(String(event.audio)) };
    case 'response.item.create': {
      const item = isPlainObject(event.item) ? event.item : {};
      if (item.type !== 'function_call_output') return undefined;
      return { type: 'sendToolOutput', callId: String(item.call_id), output: String(item.output) };
    }
    case 'session.update': {
      const session = isPlainObject(event.session) ? event.session : {};
      const delegation = isPlainObject(session.delegation) ? session.delegation : {};
      const responses = isPlainObject(delegation.responses) ? delegation.responses : {};
      return {
        type: 'updateSession',
        config: { ...(responses.tools !== undefined && { tools: toolsOf(responses.tools) }) },
      };
    }
    default:
      // `session.start` is the connection's configuration, `session.close` its close, `response.create` the
      // connection's own continuation of the backend (the provider's follow-up, not a requested response).
      return undefined;
  }
}

function toolsOf(tools: unknown): NonNullable<RealtimeSessionConfig['tools']> {
  if (!Array.isArray(tools)) return [];
  return tools.filter(isPlainObject).flatMap((tool) =>
    tool.type === 'function'
      ? [
          {
            name: String(tool.name),
            description: typeof tool.description === 'string' ? tool.description : '',
            parameters: (tool.parameters ?? {}) as Record<string, unknown>,
          },
        ]
      : [],
  );
}

function seamConfigOf(resource: LiveSessionResource): RealtimeSessionConfig {
  const delegation = resource.delegation;
  const tools = delegation?.type === 'responses' ? toolsOf(delegation.responses.tools) : [];
  const voice = resource.audio?.output?.voice;
  return {
    ...(typeof resource.instructions === 'string' && { instructions: resource.instructions }),
    tools,
    outputModalities: ['audio'],
    ...(typeof voice === 'string' && { voice }),
  };
}

/**
 * Drives an adapter through the GPT-Live simulator the way `@parley/conformance`'s `RealtimeHarness` describes,
 * as far as GPT-Live goes: provider errors, dropped connections, what the simulator received (as seam commands) and
 * the session's configuration. GPT-Live answers no response requests and reports no speech events, so the methods
 * that script requested responses or server-side speech reject, saying so; the scenarios that need them require
 * `responseRequests` or `turnDetection`, which a GPT-Live model does not declare. It has no
 * `respondAnnouncingItemsEarly()`: GPT-Live has no conversation items to announce, early or late.
 */
export class LiveSimulatorHarness extends SimulatorHarnessBase<LiveSimulator> {
  /** `faults` is the transport `model` was given (without it, the harness has no transport faults). */
  constructor(simulator: LiveSimulator, model: RealtimeModel, faults?: TransportFaults) {
    super(simulator, model, faults);
  }

  protected commandOfFrame(frame: unknown): RealtimeCommand['type'] | undefined {
    return liveEventToCommand(frame)?.type;
  }

  /** What the primary socket received (the sideband and data channels carry no seam commands). */
  protected receivedCommands(): RealtimeCommand[] {
    return this.simulator.clientEvents.flatMap((recorded) => {
      if (recorded.socket !== 'primary') return [];
      const command = liveEventToCommand(recorded.event);
      return command ? [command] : [];
    });
  }

  /** Queues what the voice model says after the next utterances (spoken messages only: it never calls tools). */
  async respondWith(...responses: LiveHarnessResponse[]): Promise<void> {
    for (const response of responses) {
      if (response.hold || response.output.some((o) => o.type !== 'message')) {
        throw new Error('GPT-Live speaks on its own: it neither calls tools nor holds a response.');
      }
      this.simulator.script(
        response.output.map((o): LiveReaction => ({ type: 'speak', text: (o as { text: string }).text })),
      );
    }
  }

  /** Audio the simulator hears as `text` (see `speechAudio`). */
  userSpeech(text: string): Uint8Array {
    return speechAudio(text);
  }

  /** The voice model delegates the next utterance. */
  async delegateNext(): Promise<void> {
    this.simulator.script({ type: 'delegate' });
  }

  finishResponse(): Promise<void> {
    return this.#unsupported('holds no response');
  }

  userStartsSpeaking(): Promise<void> {
    return this.#unsupported('reports no speech events (its turn-taking is inside the model)');
  }

  userStopsSpeaking(): Promise<void> {
    return this.#unsupported('reports no speech events (its turn-taking is inside the model)');
  }

  async emitError(error: { code: string; message: string }): Promise<void> {
    (await this.#latest()).serverError(error.code, error.message);
  }

  refuseNextResponse(): Promise<void> {
    return this.#unsupported('takes no response requests');
  }

  collideNextResponse(): Promise<void> {
    return this.#unsupported('takes no response requests');
  }

  /**
   * The user is mid-utterance: the model sends the start of its transcript (`partial`, as
   * `session.input_transcript.delta` fragments; GPT-Live never sends a final one), then the connection drops (TCP)
   * before the turn ends.
   */
  async cutMidTranscription(partial: string): Promise<void> {
    (await this.#latest()).transcribeUnfinished(partial);
    await this.disconnect();
  }

  /** The service ends the session over quota: the `insufficient_quota` error, then close code 1008. */
  async failFatally(): Promise<{ code: string }> {
    const session = await this.#latest();
    session.endWithFailure({
      closeCode: 1008,
      reason: 'insufficient_quota',
      error: { code: 'insufficient_quota', message: 'You exceeded your current quota.' },
    });
    await session.primaryClosed;
    return { code: 'insufficient_quota' };
  }

  async disconnect(): Promise<void> {
    const session = await this.#latest();
    session.dropPrimary();
    await session.primaryClosed;
  }

  /** The latest session's resolved configuration (its start merged with accepted updates), in the seam's shape. */
  async sessionConfig(): Promise<RealtimeSessionConfig> {
    return seamConfigOf((await this.#latest()).resource);
  }

  /** GPT-Live keeps no conversation items: what the model remembers is its transcript, as messages. */
  async conversation(): Promise<readonly RealtimeItem[]> {
    return (await this.#latest()).transcript.map((line, index) => ({
      type: 'message',
      itemId: `transcript_${index}`,
      role: line.role,
      content: [{ type: 'text', text: line.text }],
      status: 'completed',
    }));
  }

  /** Resolves once the adapter closed the latest session itself: `session.close`, then the socket closed. */
  async waitForClientClose(options: { timeoutMs?: number } = {}): Promise<void> {
    const session = await this.#latest();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('The adapter did not close its GPT-Live session in time.')),
        options.timeoutMs ?? 2000,
      );
    });
    try {
      await Promise.race([session.primaryClosed, timeout]);
    } finally {
      clearTimeout(timer);
    }
    const asked = this.simulator.clientEvents.some(
      (r) => r.sessionId === session.id && isPlainObject(r.event) && r.event.type === 'session.close',
    );
    if (!asked) throw new Error('The GPT-Live session ended without the adapter sending session.close.');
  }

  dispose(): Promise<void> {
    return this.simulator.close();
  }

  #latest(): Promise<LiveSimulatorSession> {
    const sessions = this.simulator.sessions;
    const latest = sessions.at(-1);
    if (latest) return Promise.resolve(latest);
    return this.simulator.waitForSession(0);
  }

  async #unsupported(what: string): Promise<never> {
    throw new Error(`GPT-Live ${what}: the Live harness cannot script it.`);
  }
}

/** A {@link LiveSimulatorHarness} on a fresh GPT-Live simulator. */
export async function createLiveSimulatorHarness(
  options: LiveSimulatorHarnessOptions,
): Promise<LiveSimulatorHarness> {
  LIVE_HARNESS_OPTIONS.check(options);
  const simulator = await startLiveSimulator(options.simulator);
  const faults = await TransportFaults.create();
  return new LiveSimulatorHarness(simulator, options.createModel(simulator, faults.transport), faults);
}
