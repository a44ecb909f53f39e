import {
  type HarnessResponse,
  isCompoundResponse,
  type RealtimeHarness,
  SeamCommandLog,
} from '@parley/conformance';
import type {
  Clock,
  RealtimeCommand,
  RealtimeItem,
  RealtimeModel,
  RealtimeSessionConfig,
} from '@parley/core';
import {
  type GeminiClientMessage,
  type GeminiContent,
  GeminiLiveModel,
  type GeminiSetup,
} from '@parley/google';
import { ManualClock } from '@parley/mock';
import {
  FastForwardClock,
  type GeminiScriptedOutput,
  type GeminiScriptedTurn,
  type GeminiSimulator,
  type GeminiSimulatorOptions,
  startGeminiSimulator,
} from '@parley/simulator';
import { type HarnessTransport, TransportFaults } from '@parley/transport/testing';

/** What the harness hands the adapter under test: its clock and a WebSocket the harness can fault. */
export interface GeminiHarnessTransport extends HarnessTransport {
  clock: Clock;
}

/** Options of {@link createGeminiHarness}. */
export interface GeminiHarnessOptions {
  /** Builds the adapter under test, pointed at the simulator; give it all of `transport`. */
  createModel(simulator: GeminiSimulator, transport: GeminiHarnessTransport): RealtimeModel;
  simulator?: GeminiSimulatorOptions;
}

const CONTENT: ReadonlySet<RealtimeCommand['type']> = new Set([
  'createItem',
  'createResponse',
  'sendToolOutput',
]);

function toTurn(response: HarnessResponse): GeminiScriptedTurn {
  if (isCompoundResponse(response)) {
    throw new Error(
      'Gemini Live has no compound responses (compoundResponses): a model turn is one message, or tool calls that ' +
        'end it while the model waits for their responses.',
    );
  }
  const outputs = response.output.map(
    (output): GeminiScriptedOutput =>
      output.type === 'message'
        ? {
            type: 'speech',
            text: output.text,
            ...(output.audioMs !== undefined && { audioMs: output.audioMs }),
            ...(output.holdAfterMs !== undefined && { holdAfterMs: output.holdAfterMs }),
            ...(output.transcriptDeltas === false && { transcript: false }),
          }
        : {
            type: 'call',
            name: output.name,
            args: output.arguments ?? {},
            ...(output.callId !== undefined && { id: output.callId }),
          },
  );
  return { outputs, ...(response.hold && { hold: true }) };
}

function textOf(turn: GeminiContent): string {
  return turn.parts.map((part) => part.text ?? '').join('');
}

function itemsOf(turns: readonly GeminiContent[], ids: () => string): RealtimeItem[] {
  const items: RealtimeItem[] = [];
  for (const turn of turns) {
    for (const part of turn.parts) {
      if (part.functionCall) {
        items.push({
          type: 'function_call',
          itemId: ids(),
          callId: part.functionCall.id ?? '',
          name: part.functionCall.name,
          arguments: JSON.stringify(part.functionCall.args ?? {}),
        });
      } else if (part.functionResponse) {
        const output = part.functionResponse.response.output;
        items.push({
          type: 'function_call_output',
          itemId: ids(),
          callId: part.functionResponse.id ?? '',
          output: typeof output === 'string' ? output : JSON.stringify(output),
        });
      }
    }
    const text = textOf(turn);
    if (text || turn.parts.every((part) => part.text !== undefined)) {
      items.push({
        type: 'message',
        itemId: ids(),
        role: turn.role === 'model' ? 'assistant' : 'user',
        content: [{ type: 'text', text }],
      });
    }
  }
  return items;
}

/** A `setup` in the seam's configuration shape. */
export function setupToSeamConfig(setup: GeminiSetup | undefined): RealtimeSessionConfig {
  if (!setup) return {};
  const instructions = setup.systemInstruction?.parts.map((p) => p.text ?? '').join('');
  const declarations = setup.tools?.flatMap((tool) => tool.functionDeclarations) ?? [];
  const voice = setup.generationConfig?.speechConfig?.voiceConfig?.prebuiltVoiceConfig?.voiceName;
  const automatic = setup.realtimeInputConfig?.automaticActivityDetection;
  return {
    ...(instructions && { instructions }),
    tools: declarations.map((d) => ({
      name: d.name,
      description: d.description ?? '',
      parameters: (d.parametersJsonSchema ?? {}) as never,
    })),
    ...(voice !== undefined && { voice }),
    turnDetection: automatic?.disabled
      ? null
      : {
          ...(automatic?.silenceDurationMs !== undefined && {
            silenceDurationMs: automatic.silenceDurationMs,
          }),
          ...(setup.realtimeInputConfig?.activityHandling === 'NO_INTERRUPTION' && {
            interruptResponse: false,
          }),
        },
    inputTranscription: setup.inputAudioTranscription ? {} : null,
  };
}

/**
 * The seam commands a client message carries, as `[type, count]`. The protocol has no request or item ids, so the
 * commands are recorded at the seam and the simulator only confirms, per type, what reached it: a user turn is a
 * `createItem`, `turnComplete: true` a `createResponse`, empty content that completes nothing the adapter's
 * `cancelResponse`, `activityEnd` a `commitInputAudio`, each function response a `sendToolOutput`, and a `setup` that
 * resumes a session (it carries a handle) an `updateSession` (a new configuration travels so).
 */
export function commandsIn(message: GeminiClientMessage): [RealtimeCommand['type'], number][] {
  const found: [RealtimeCommand['type'], number][] = [];
  if ('setup' in message) {
    if (message.setup.sessionResumption?.handle !== undefined) found.push(['updateSession', 1]);
  } else if ('realtimeInput' in message) {
    if (message.realtimeInput.audio) found.push(['appendInputAudio', 1]);
    if (message.realtimeInput.activityEnd) found.push(['commitInputAudio', 1]);
  } else if ('clientContent' in message) {
    const turns = message.clientContent.turns ?? [];
    if (turns.length > 0) found.push(['createItem', turns.length]);
    else if (message.clientContent.turnComplete === false) found.push(['cancelResponse', 1]);
    if (message.clientContent.turnComplete) found.push(['createResponse', 1]);
  } else if ('toolResponse' in message) {
    found.push(['sendToolOutput', message.toolResponse.functionResponses.length]);
  }
  return found;
}

/**
 * Drives `GeminiLiveModel` through the Gemini simulator the way `RealtimeHarness` describes. It has no `emitError`,
 * `refuseNextResponse` or `collideNextResponse`: every Gemini Live failure ends the connection (no
 * `recoverableErrors`), and no turn holds several messages or goes on after its tool calls (no `compoundResponses`);
 * the scenarios that need them require those capabilities.
 */
export async function createGeminiHarness(options: GeminiHarnessOptions): Promise<RealtimeHarness> {
  const clock = new FastForwardClock();
  const simulator = await startGeminiSimulator({ clock, ...options.simulator });
  const log = new SeamCommandLog();
  simulator.onClientMessage((message) => {
    for (const [type, count] of commandsIn(message)) log.received(type, count);
  });
  const faults = await TransportFaults.create();
  const model = log.wrap(options.createModel(simulator, { ...faults.transport, clock }));
  /**
   * Resolves once the content the session sent reached the simulator (bounded: 2 s): a cut the backend makes comes
   * after what it was sent, as a service's would.
   */
  const contentArrived = () =>
    new Promise<void>((resolve) => {
      const pending = () => log.unconfirmed().some((command) => CONTENT.has(command.type));
      const done = () => {
        clearTimeout(timer);
        stop();
        resolve();
      };
      const timer = setTimeout(done, 2000);
      const stop = simulator.onClientMessage(() => {
        if (!pending()) done();
      });
      if (!pending()) done();
    });
  const latest = () => {
    const session = simulator.latest;
    if (!session) throw new Error('The adapter has not connected to the simulator yet.');
    return session;
  };
  return {
    model,
    sessionClock: new ManualClock(),
    async respondWith(...responses) {
      simulator.respondWith(...responses.map(toTurn));
    },
    async finishResponse() {
      latest().release();
    },
    async userStartsSpeaking() {
      latest().userStartsSpeaking();
    },
    async userStopsSpeaking(stop = {}) {
      latest().userStopsSpeaking(stop.transcript);
    },
    async cutMidTranscription(partial) {
      await contentArrived();
      const session = latest();
      session.cutMidTranscription(partial);
      await session.closed;
    },
    async disconnect() {
      const session = latest();
      session.drop();
      await session.closed;
    },
    async failFatally() {
      const session = latest();
      session.closeWith(1008, 'Requested entity was not found.');
      await session.closed;
      return { code: 'policy_violation' };
    },
    async cancelToolCall(callId) {
      latest().cancelCalls([callId]);
    },
    get connectionStopsSilently() {
      if (!faults.reachable) return undefined;
      return async () => faults.stopSilently();
    },
    get failNextWrite() {
      if (!faults.reachable) return undefined;
      return async (commandType: RealtimeCommand['type']) =>
        faults.failNextWrite((frame) =>
          commandsIn(JSON.parse(frame) as GeminiClientMessage).some(([type]) => type === commandType),
        );
    },
    async commands() {
      return log.commands();
    },
    waitForCommand: (match, waitOptions) => log.waitForCommand(match, waitOptions),
    async sessionConfig() {
      return setupToSeamConfig(latest().setup);
    },
    async conversation() {
      let ids = 0;
      return itemsOf(latest().history, () => `sim_item_${++ids}`);
    },
    async waitForClientClose(waitOptions = {}) {
      const session = latest();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('The adapter did not close its connection in time.')),
          waitOptions.timeoutMs ?? 2000,
        );
        void session.closed.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    async dispose() {
      await simulator.close();
    },
  };
}

/** The conformance harness of `GeminiLiveModel` as shipped: its default options, pointed at a fresh simulator. */
export function createGeminiLiveHarness(): Promise<RealtimeHarness> {
  return createGeminiHarness({
    createModel: (simulator, transport) =>
      new GeminiLiveModel({
        apiKey: 'test-key',
        baseUrl: simulator.wsBaseUrl,
        keepalive: false,
        ...transport,
      }),
  });
}
