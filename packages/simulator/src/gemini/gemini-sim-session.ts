import type { Clock, TimerHandle } from '@parley/core';
import type {
  GeminiClientMessage,
  GeminiContent,
  GeminiFunctionCall,
  GeminiServerMessage,
  GeminiSetup,
} from '@parley/google';
import { durationString } from '@parley/google';
import { concatAudio } from '../shared/audio-codec.js';
import { EnergyVad } from '../shared/energy-vad.js';
import { assistantAudio, decodeSpeechTexts } from '../shared/sim-audio.js';
import { echoTurn, type GeminiScript, type GeminiScriptedOutput, speechMs } from './gemini-script.js';
import type { ResolvedSimulatorSettings } from './gemini-sim-settings.js';
import type { ResumptionStore } from './resumption-store.js';

/** RMS level (0–1 of full scale) from which a frame of user audio is speech. */
const SPEECH_LEVEL = 0.05;

/** The socket side a simulated session writes to (the `ws` package's server socket). */
export interface SimSocket {
  send(data: string, callback?: (error?: Error) => void): void;
  close(code: number, reason: string): void;
  terminate(): void;
}

const CLIENT_FIELDS = new Set(['setup', 'clientContent', 'realtimeInput', 'toolResponse']);
const SETUP_FIELDS = new Set([
  'model',
  'generationConfig',
  'systemInstruction',
  'tools',
  'realtimeInputConfig',
  'sessionResumption',
  'contextWindowCompression',
  'inputAudioTranscription',
  'outputAudioTranscription',
  'proactivity',
  'historyConfig',
]);
const CHUNK_MS = 100;
/** Tokens per second of audio, as the service counts them. */
const AUDIO_TOKENS_PER_SECOND = 32;

interface ActiveTurn {
  outputs: GeminiScriptedOutput[];
  hold: boolean;
  timer: TimerHandle | undefined;
  pendingCalls: Map<string, string>;
  spoken: string;
  audioMs: number;
  /** Clock time at which the client's playback of what was sent ends (the model waits for it before turnComplete). */
  playbackEndsAt: number;
  held: (() => void) | undefined;
  /** Audio ms of the current speech output already sent (for `holdAfterMs`). */
  sentOfOutput: number;
  /** Calls went out since the turn last continued: once all are answered, the turn continues. */
  called: boolean;
  /** `release()` calls that came before the hold they release: that many holds are passed without stopping. */
  releasedEarly: number;
}

/**
 * One simulated Gemini Live connection: validates `setup`, hears realtime input (server VAD or activity signals),
 * streams scripted model turns on the injected clock, interrupts them, runs tool calls and cancellations, issues
 * resumption handles and says `goAway` before the connection's lifetime ends. Failures close the socket with a
 * close code, as the service does: there is no error message in the protocol.
 */
export class GeminiSimSession {
  /** Every client message this connection received, parsed, in order. */
  readonly received: GeminiClientMessage[] = [];
  /** Every server message this connection sent, in order. */
  readonly sent: GeminiServerMessage[] = [];
  /** The server-side context: what the model remembers. */
  history: GeminiContent[] = [];
  setup: GeminiSetup | undefined;
  /** `true` when the connection resumed a session from a handle. */
  resumed = false;
  readonly index: number;
  readonly sessionId: string;
  /** Resolves with the close code once the connection closed (by either side). */
  readonly closed: Promise<number>;
  /** Set when the client closed the connection. */
  closedByClient = false;
  readonly #socket: SimSocket;
  readonly #settings: ResolvedSimulatorSettings;
  readonly #clock: Clock;
  readonly #script: GeminiScript;
  readonly #store: ResumptionStore;
  readonly #detector = new EnergyVad();
  #phase: 'setup' | 'ready' | 'closed' = 'setup';
  #turn: ActiveTurn | undefined;
  #userAudio: Uint8Array[] = [];
  #manualActivity = false;
  #userActive = false;
  #timers = new Set<TimerHandle>();
  #callIds = 0;
  #resolveClosed!: (code: number) => void;
  #usage = { prompt: 0, response: 0 };
  #closingByServer = false;

  constructor(
    socket: SimSocket,
    index: number,
    deps: {
      settings: ResolvedSimulatorSettings;
      clock: Clock;
      script: GeminiScript;
      store: ResumptionStore;
    },
  ) {
    this.#socket = socket;
    this.index = index;
    this.sessionId = `sim-session-${index}`;
    this.#settings = deps.settings;
    this.#clock = deps.clock;
    this.#script = deps.script;
    this.#store = deps.store;
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
  }

  get ready(): boolean {
    return this.#phase === 'ready';
  }

  /** Whether a model turn is under way (generating, waiting for tool responses or for playback to end). */
  get generating(): boolean {
    return this.#turn !== undefined;
  }

  // --- controls for tests ---

  /**
   * Says `goAway` with `timeLeftMs`, then closes the connection when it has elapsed (`close: false`: the test closes
   * it, or leaves it open).
   */
  goAway(timeLeftMs: number, options: { close?: boolean } = {}): void {
    if (this.#phase !== 'ready') return;
    this.#send({ goAway: { timeLeft: durationString(timeLeftMs) } });
    if (options.close === false) return;
    this.#after(timeLeftMs, () =>
      this.closeWith(this.#settings.closeCodes.lifetime, 'The connection reached its time limit.'),
    );
  }

  /** Continues a turn paused by `hold` or `holdAfterMs`; called before the turn reaches its hold, it passes it. */
  release(): void {
    const turn = this.#turn;
    if (!turn) return;
    const held = turn.held;
    if (!held) {
      turn.releasedEarly++;
      return;
    }
    turn.held = undefined;
    held();
  }

  /** Whether the turn stops at a hold it reached; a hold released early is passed. */
  #holds(turn: ActiveTurn): boolean {
    if (turn.releasedEarly === 0) return true;
    turn.releasedEarly--;
    return false;
  }

  /** The activity detection hears the user start speaking (it interrupts the model's turn). */
  userStartsSpeaking(): void {
    if (this.#phase === 'ready') this.#userStarts();
  }

  /** The user's activity ends, in which the service heard `transcript`: the model answers. */
  userStopsSpeaking(transcript?: string): void {
    if (this.#phase !== 'ready') return;
    if (transcript !== undefined) this.#script.hear(transcript);
    this.#userActive = true;
    this.#userEnds();
  }

  /** The service transcribes the start of a user turn (`partial`), then the connection drops. */
  cutMidTranscription(partial: string): void {
    if (this.#phase !== 'ready') return;
    this.sent.push({ serverContent: { inputTranscription: { text: partial } } });
    this.#socket.send(JSON.stringify({ serverContent: { inputTranscription: { text: partial } } }), () =>
      this.drop(),
    );
  }

  /**
   * The service withdraws calls of the turn under way (`toolCallCancellation`); a turn left with no call to wait for
   * ends.
   */
  cancelCalls(ids: readonly string[]): void {
    if (this.#phase !== 'ready') return;
    this.#send({ toolCallCancellation: { ids: [...ids] } });
    const turn = this.#turn;
    if (!turn) return;
    for (const id of ids) turn.pendingCalls.delete(id);
    if (turn.pendingCalls.size === 0 && turn.outputs.length === 0 && turn.timer === undefined && !turn.held) {
      this.#turn = undefined;
      this.#sendUsage(turn);
      this.#send({ serverContent: { turnComplete: true } });
      this.#offerHandle();
    }
  }

  /** Closes the connection with a close code, as the service ends a session it refuses. */
  closeWith(code: number, reason: string): void {
    if (this.#phase === 'closed') return;
    this.#closingByServer = true;
    this.#end();
    try {
      this.#socket.close(code, reason);
    } catch {
      this.#socket.terminate();
    }
  }

  /** Drops the connection without a closing handshake. */
  drop(): void {
    if (this.#phase === 'closed') return;
    this.#closingByServer = true;
    this.#end();
    this.#socket.terminate();
  }

  /** The socket closed (either side). */
  socketClosed(code: number): void {
    if (!this.#closingByServer) this.closedByClient = true;
    this.#end();
    this.#resolveClosed(code);
  }

  // --- input ---

  /** A text frame from the client. */
  receive(text: string): void {
    if (this.#phase === 'closed') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.#invalid(`Invalid JSON payload received. Unexpected token.`);
      return;
    }
    const keys = typeof message === 'object' && message !== null ? Object.keys(message) : [];
    const unknown = keys.find((key) => !CLIENT_FIELDS.has(key));
    if (unknown !== undefined) {
      this.#invalid(`Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`);
      return;
    }
    if (keys.length !== 1) {
      this.#invalid(
        'A client message must carry exactly one of setup, clientContent, realtimeInput, toolResponse.',
      );
      return;
    }
    const parsed = message as GeminiClientMessage;
    this.received.push(parsed);
    if ('setup' in parsed) this.#onSetup(parsed.setup);
    else if (this.#phase !== 'ready') this.#invalid('The first message must be setup.');
    else if ('clientContent' in parsed) this.#onClientContent(parsed.clientContent);
    else if ('realtimeInput' in parsed) this.#onRealtimeInput(parsed.realtimeInput);
    else if ('toolResponse' in parsed) this.#onToolResponse(parsed.toolResponse.functionResponses ?? []);
  }

  #onSetup(setup: GeminiSetup): void {
    if (this.#phase !== 'setup') {
      this.#invalid('setup may only be sent once, as the first message.');
      return;
    }
    const unknown = Object.keys(setup ?? {}).find((key) => !SETUP_FIELDS.has(key));
    if (unknown !== undefined) {
      this.#invalid(
        `Invalid JSON payload received. Unknown name "${unknown}" at 'setup': Cannot find field.`,
      );
      return;
    }
    const problem = this.#settings.checkModel(setup.model);
    if (problem !== undefined) {
      this.closeWith(this.#settings.closeCodes.notFound, problem);
      return;
    }
    const modalities = setup.generationConfig?.responseModalities ?? ['AUDIO'];
    if (modalities.length !== 1) {
      this.#invalid('Only one response modality (AUDIO or TEXT) is supported per session.');
      return;
    }
    const handle = setup.sessionResumption?.handle;
    if (handle !== undefined) {
      const history = this.#store.resolve(handle, this.#clock.now());
      if (history === undefined) {
        if (this.#settings.unknownHandle === 'close') {
          this.closeWith(
            this.#settings.closeCodes.notFound,
            'The session resumption handle is invalid or expired.',
          );
          return;
        }
      } else {
        this.history = history;
        this.resumed = true;
      }
    }
    this.setup = setup;
    this.#manualActivity = setup.realtimeInputConfig?.automaticActivityDetection?.disabled === true;
    this.#phase = 'ready';
    this.#send({ setupComplete: { sessionId: this.sessionId } });
    this.#offerHandle();
    const { lifetimeMs, goAwayNoticeMs } = this.#settings;
    this.#after(Math.max(0, lifetimeMs - goAwayNoticeMs), () =>
      this.goAway(Math.min(goAwayNoticeMs, lifetimeMs)),
    );
  }

  #onClientContent(content: { turns?: GeminiContent[]; turnComplete?: boolean }): void {
    // Any client content interrupts the turn being generated.
    if (this.#turn) this.#interrupt();
    for (const turn of content.turns ?? []) this.history.push(structuredClone(turn));
    if (content.turnComplete === true) this.#startTurn(lastUserText(this.history));
  }

  #onRealtimeInput(input: {
    audio?: { data: string; mimeType: string };
    text?: string;
    audioStreamEnd?: boolean;
    activityStart?: object;
    activityEnd?: object;
  }): void {
    if ((input.activityStart || input.activityEnd) && !this.#manualActivity) {
      this.#invalid(
        'activityStart and activityEnd can only be sent if automatic activity detection is disabled.',
      );
      return;
    }
    if (input.activityStart) this.#userStarts();
    if (input.audio) this.#onAudio(input.audio);
    if (input.text !== undefined) {
      if (this.#turn) this.#interrupt();
      this.history.push({ role: 'user', parts: [{ text: input.text }] });
      this.#startTurn(input.text);
    }
    if (input.audioStreamEnd && !this.#manualActivity) {
      for (const transition of this.#detector.flush()) if (transition.type === 'end') this.#userEnds();
    }
    if (input.activityEnd) this.#userEnds();
  }

  #onAudio(audio: { data: string; mimeType: string }): void {
    const rate = Number(/rate=(\d+)/.exec(audio.mimeType)?.[1] ?? 16000);
    const bytes = new Uint8Array(Buffer.from(audio.data, 'base64'));
    if (this.#manualActivity) {
      if (this.#userActive) this.#userAudio.push(bytes);
      return;
    }
    const silenceMs =
      this.setup?.realtimeInputConfig?.automaticActivityDetection?.silenceDurationMs ??
      this.#settings.silenceMs;
    const wasActive = this.#detector.active;
    if (wasActive) this.#userAudio.push(bytes);
    for (const transition of this.#detector.push(bytes, { rate, level: SPEECH_LEVEL, silenceMs })) {
      if (transition.type === 'start') {
        if (!wasActive) this.#userAudio.push(bytes);
        this.#userStarts();
      } else {
        this.#userEnds();
      }
    }
  }

  #userStarts(): void {
    this.#userActive = true;
    const interrupts = this.setup?.realtimeInputConfig?.activityHandling !== 'NO_INTERRUPTION';
    if (this.#turn && interrupts) this.#interrupt();
  }

  #userEnds(): void {
    if (!this.#userActive) return;
    this.#userActive = false;
    const audio = concatAudio(this.#userAudio);
    this.#userAudio = [];
    const text = decodeSpeechTexts(audio).join(' ') || this.#script.nextHeard() || '';
    if (this.setup?.inputAudioTranscription && text) {
      const words = text.split(/(?<= )/);
      for (const [i, word] of words.entries()) {
        const last = i === words.length - 1;
        this.#send({
          serverContent: {
            inputTranscription: {
              text: word,
              ...(last && this.#settings.inputTranscriptionFinished && { finished: true }),
            },
          },
        });
      }
    }
    this.#usage.prompt += Math.ceil((audio.length / 32000) * AUDIO_TOKENS_PER_SECOND);
    this.history.push({ role: 'user', parts: [{ text }] });
    if (!this.#turn) this.#startTurn(text);
  }

  #onToolResponse(responses: { id?: string; name: string; response: Record<string, unknown> }[]): void {
    for (const response of responses) {
      this.history.push({ role: 'user', parts: [{ functionResponse: structuredClone(response) }] });
      const turn = this.#turn;
      if (turn && response.id !== undefined) turn.pendingCalls.delete(response.id);
    }
    const turn = this.#turn;
    if (
      turn &&
      turn.pendingCalls.size === 0 &&
      turn.outputs.length === 0 &&
      turn.timer === undefined &&
      !turn.held
    ) {
      this.#continueAfterTools(turn);
    }
  }

  /** The service continues the same turn once every call has its response. */
  #continueAfterTools(turn: ActiveTurn): void {
    turn.called = false;
    const next = this.#script.next() ?? { outputs: [{ type: 'speech', text: 'Done.' }] };
    turn.outputs.push(...next.outputs);
    turn.hold = next.hold === true;
    this.#schedule(turn, this.#settings.pace?.firstOutputMs ?? 0);
  }

  // --- model turns ---

  #startTurn(heard: string): void {
    if (this.#turn) return;
    const scripted = this.#script.next() ?? echoTurn(heard);
    const turn: ActiveTurn = {
      outputs: [...scripted.outputs],
      hold: scripted.hold === true,
      timer: undefined,
      pendingCalls: new Map(),
      spoken: '',
      audioMs: 0,
      playbackEndsAt: this.#clock.now(),
      held: undefined,
      sentOfOutput: 0,
      called: false,
      releasedEarly: 0,
    };
    this.#turn = turn;
    this.#schedule(turn, this.#settings.pace?.firstOutputMs ?? 0);
  }

  #schedule(turn: ActiveTurn, ms: number): void {
    if (this.#settings.pace === undefined) {
      this.#step(turn);
      return;
    }
    turn.timer = this.#clock.setTimeout(() => {
      turn.timer = undefined;
      this.#step(turn);
    }, ms);
  }

  /** Sends the turn's next chunk (audio + transcription, text, or a batch of calls). */
  #step(turn: ActiveTurn): void {
    if (this.#turn !== turn || this.#phase !== 'ready') return;
    const output = turn.outputs[0];
    if (output === undefined) {
      if (turn.pendingCalls.size > 0) return; // waits for the tool responses
      if (turn.called) {
        this.#continueAfterTools(turn);
        return;
      }
      this.#finish(turn);
      return;
    }
    if (output.type === 'call') {
      const calls: GeminiFunctionCall[] = [];
      while (turn.outputs[0]?.type === 'call') {
        const call = turn.outputs.shift() as Extract<GeminiScriptedOutput, { type: 'call' }>;
        const id = call.id ?? `function-call-${this.index}-${++this.#callIds}`;
        calls.push({ id, name: call.name, args: call.args ?? {} });
        turn.pendingCalls.set(id, call.name);
      }
      for (const call of calls) this.history.push({ role: 'model', parts: [{ functionCall: call }] });
      turn.called = true;
      this.#send({ toolCall: { functionCalls: calls } });
      this.#schedule(turn, 0);
      return;
    }
    const total = speechMs(output);
    if (output.holdAfterMs !== undefined && turn.sentOfOutput >= output.holdAfterMs && !turn.held) {
      const holdAt = output.holdAfterMs;
      delete output.holdAfterMs;
      if (holdAt < total && this.#holds(turn)) {
        turn.held = () => this.#step(turn);
        return;
      }
    }
    const chunkMs = Math.min(CHUNK_MS, total - turn.sentOfOutput);
    const from = Math.floor((output.text.length * turn.sentOfOutput) / total);
    const to = Math.floor((output.text.length * (turn.sentOfOutput + chunkMs)) / total);
    const piece = output.text.slice(from, to);
    const audioOut = this.setup?.generationConfig?.responseModalities?.[0] !== 'TEXT';
    if (audioOut) {
      const audio = assistantAudio(chunkMs, Math.round(turn.audioMs * 24));
      this.#send({
        serverContent: {
          modelTurn: {
            parts: [
              {
                inlineData: { mimeType: 'audio/pcm;rate=24000', data: Buffer.from(audio).toString('base64') },
              },
            ],
          },
        },
      });
      if (piece && this.setup?.outputAudioTranscription && output.transcript !== false) {
        this.#send({ serverContent: { outputTranscription: { text: piece } } });
      }
    } else if (piece) {
      this.#send({ serverContent: { modelTurn: { parts: [{ text: piece }] } } });
    }
    turn.spoken += piece;
    turn.audioMs += chunkMs;
    turn.playbackEndsAt = Math.max(turn.playbackEndsAt, this.#clock.now()) + chunkMs;
    turn.sentOfOutput += chunkMs;
    if (turn.sentOfOutput >= total) {
      turn.outputs.shift();
      turn.sentOfOutput = 0;
      turn.spoken += ' ';
    }
    const speed = this.#settings.pace?.speed ?? 1;
    this.#schedule(turn, chunkMs / speed);
  }

  /** Generation is over: `generationComplete`, then (once the audio sent would have played) `turnComplete`. */
  #finish(turn: ActiveTurn): void {
    this.#send({ serverContent: { generationComplete: true } });
    this.#rememberModelText(turn);
    const complete = () => {
      if (this.#turn !== turn) return;
      if (turn.hold && this.#holds(turn)) {
        // A held turn stays open after its generation (as while the model waits for playback) until `release()`.
        turn.hold = false;
        turn.held = complete;
        return;
      }
      this.#turn = undefined;
      this.#sendUsage(turn);
      this.#send({ serverContent: { turnComplete: true } });
      this.#offerHandle();
    };
    const waitMs = turn.playbackEndsAt - this.#clock.now();
    if (this.#settings.pace === undefined || waitMs <= 0) complete();
    else turn.timer = this.#clock.setTimeout(complete, waitMs);
  }

  #interrupt(): void {
    const turn = this.#turn;
    if (!turn) return;
    if (turn.timer !== undefined) this.#clock.clearTimeout(turn.timer);
    this.#turn = undefined;
    this.#rememberModelText(turn);
    this.#send({ serverContent: { interrupted: true } });
    if (turn.pendingCalls.size > 0) {
      this.#send({ toolCallCancellation: { ids: [...turn.pendingCalls.keys()] } });
    }
    this.#sendUsage(turn);
    this.#send({ serverContent: { turnComplete: true } });
    this.#offerHandle();
  }

  #rememberModelText(turn: ActiveTurn): void {
    const text = turn.spoken.trim();
    turn.spoken = '';
    if (text) this.history.push({ role: 'model', parts: [{ text }] });
  }

  #sendUsage(turn: ActiveTurn): void {
    const response = Math.ceil((turn.audioMs / 1000) * AUDIO_TOKENS_PER_SECOND);
    const prompt = this.#usage.prompt + textTokens(this.history);
    this.#usage.prompt = 0;
    this.#usage.response += response;
    const responseTokens = this.#settings.usage === 'cumulative' ? this.#usage.response : response;
    this.#send({
      usageMetadata: {
        promptTokenCount: prompt,
        responseTokenCount: responseTokens,
        totalTokenCount: prompt + responseTokens,
        responseTokensDetails: [{ modality: 'AUDIO', tokenCount: responseTokens }],
      },
    });
  }

  #offerHandle(): void {
    if (!this.setup?.sessionResumption || this.#turn || this.#phase !== 'ready') return;
    const handle = this.#store.issue(this.index, this.history);
    // Every message received so far is in the state (the first, `setup`, is index 0).
    const consumed = this.setup.sessionResumption.transparent === true && {
      lastConsumedClientMessageIndex: String(this.received.length - 1),
    };
    this.#send({ sessionResumptionUpdate: { newHandle: handle, resumable: true, ...consumed } });
  }

  // --- plumbing ---

  #invalid(reason: string): void {
    this.closeWith(this.#settings.closeCodes.invalidArgument, reason);
  }

  #send(message: GeminiServerMessage): void {
    if (this.#phase === 'closed') return;
    this.sent.push(message);
    this.#socket.send(JSON.stringify(message));
  }

  #after(ms: number, callback: () => void): void {
    const timer = this.#clock.setTimeout(() => {
      this.#timers.delete(timer);
      callback();
    }, ms);
    this.#timers.add(timer);
  }

  #end(): void {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    if (this.#turn?.timer !== undefined) this.#clock.clearTimeout(this.#turn.timer);
    this.#turn = undefined;
    for (const timer of this.#timers) this.#clock.clearTimeout(timer);
    this.#timers.clear();
    this.#store.sessionClosed(this.index, this.#clock.now());
  }
}

function lastUserText(history: readonly GeminiContent[]): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i] as GeminiContent;
    if (turn.role !== 'user') continue;
    const text = turn.parts.map((p) => p.text ?? '').join('');
    if (text) return text;
  }
  return '';
}

function textTokens(history: readonly GeminiContent[]): number {
  let chars = 0;
  for (const turn of history) for (const part of turn.parts) chars += part.text?.length ?? 0;
  return Math.ceil(chars / 4);
}
