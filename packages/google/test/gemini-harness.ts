import {
  type CommandMatch,
  type HarnessResponse,
  type RealtimeHarness,
  ScenarioSkippedError,
} from '@parley/conformance';
import type { RealtimeCommand, RealtimeItem, RealtimeModel, RealtimeSessionConfig } from '@parley/core';
import { FastForwardClock } from '@parley/openai/testing';
import type { GeminiClientMessage, GeminiContent, GeminiSetup } from '../src/index.js';
import {
  type GeminiScriptedOutput,
  type GeminiScriptedTurn,
  type GeminiSimulator,
  type GeminiSimulatorOptions,
  startGeminiSimulator,
} from '../src/testing/index.js';

/** Options of {@link createGeminiHarness}. */
export interface GeminiHarnessOptions {
  /** Builds the adapter under test, pointed at the simulator. */
  createModel(simulator: GeminiSimulator): RealtimeModel;
  simulator?: GeminiSimulatorOptions;
}

const NO_IN_BAND_ERRORS =
  'Gemini Live has no error message: every failure closes the connection, so an error that leaves the session ' +
  'usable cannot be scripted.';
const NO_REFUSALS = 'Gemini Live has no response requests to refuse: turnComplete always starts the answer.';

function toTurn(response: HarnessResponse): GeminiScriptedTurn {
  if (response.output.filter((output) => output.type === 'message').length > 1) {
    throw new ScenarioSkippedError(
      'Gemini Live has no conversation items: what the model says in one turn is one message.',
    );
  }
  if (response.hold && response.output.some((output) => output.type === 'function_call')) {
    throw new ScenarioSkippedError(
      'Gemini Live ends a response at its tool call (the model waits for the tool responses): a response cannot ' +
        'stay open around its calls.',
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
 * What the simulator received, as the seam's commands. The protocol has no request ids: a response request
 * (`turnComplete: true`) carries none. A `setup` that resumes a session (it carries a handle) is how a new
 * configuration travels: an `updateSession`.
 */
export function seamCommandsOf(messages: readonly GeminiClientMessage[]): RealtimeCommand[] {
  const commands: RealtimeCommand[] = [];
  for (const message of messages) {
    if ('setup' in message) {
      if (message.setup.sessionResumption?.handle !== undefined) {
        commands.push({ type: 'updateSession', config: setupToSeamConfig(message.setup) });
      }
    } else if ('realtimeInput' in message) {
      const input = message.realtimeInput;
      if (input.audio) {
        commands.push({
          type: 'appendInputAudio',
          audio: new Uint8Array(Buffer.from(input.audio.data, 'base64')),
        });
      }
      if (input.activityEnd) commands.push({ type: 'commitInputAudio' });
    } else if ('clientContent' in message) {
      let ids = 0;
      for (const item of itemsOf(message.clientContent.turns ?? [], () => `client_item_${++ids}`)) {
        const { itemId: _, ...input } = item;
        commands.push({ type: 'createItem', item: input });
      }
      const turns = message.clientContent.turns ?? [];
      if (turns.length === 0 && message.clientContent.turnComplete === false) {
        // Empty client content only interrupts the turn being generated: the adapter's cancel.
        commands.push({ type: 'cancelResponse' });
      }
      if (message.clientContent.turnComplete) {
        commands.push({ type: 'createResponse', clientRequestId: '', conversation: 'default' });
      }
    } else if ('toolResponse' in message) {
      for (const response of message.toolResponse.functionResponses) {
        const output = response.response.output;
        commands.push({
          type: 'sendToolOutput',
          callId: response.id ?? '',
          output: typeof output === 'string' ? output : JSON.stringify(output),
        });
      }
    }
  }
  return commands;
}

/**
 * Drives `GeminiLiveModel` through the Gemini simulator the way `RealtimeHarness` describes. What the protocol
 * cannot express (an error that leaves the session usable, a refused response request, a response held open around
 * its tool calls) is reported skipped with the reason.
 */
export async function createGeminiHarness(options: GeminiHarnessOptions): Promise<RealtimeHarness> {
  const simulator = await startGeminiSimulator({ clock: new FastForwardClock(), ...options.simulator });
  const model = options.createModel(simulator);
  const latest = () => {
    const session = simulator.latest;
    if (!session) throw new Error('The adapter has not connected to the simulator yet.');
    return session;
  };
  const commands = () => seamCommandsOf(simulator.received.map((entry) => entry.message));
  const matches = (match: CommandMatch) => (command: RealtimeCommand) =>
    typeof match === 'function' ? match(command) : command.type === match;
  return {
    model,
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
      const session = latest();
      session.cutMidTranscription(partial);
      await session.closed;
    },
    async emitError() {
      throw new ScenarioSkippedError(NO_IN_BAND_ERRORS);
    },
    async refuseNextResponse() {
      throw new ScenarioSkippedError(NO_REFUSALS);
    },
    async collideNextResponse() {
      throw new ScenarioSkippedError(NO_REFUSALS);
    },
    async disconnect() {
      const session = latest();
      session.drop();
      await session.closed;
    },
    async commands() {
      return commands();
    },
    waitForCommand(match, waitOptions = {}) {
      const count = waitOptions.count ?? 1;
      const found = () => commands().filter(matches(match));
      if (found().length >= count) return Promise.resolve(found());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          stop();
          reject(
            new Error(
              `Timed out waiting for ${count} ${typeof match === 'string' ? match : 'matching'} command(s); received: ${JSON.stringify(commands().map((c) => c.type))}`,
            ),
          );
        }, waitOptions.timeoutMs ?? 2000);
        const stop = simulator.onClientMessage(() => {
          if (found().length < count) return;
          clearTimeout(timer);
          stop();
          resolve(found());
        });
      });
    },
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
