import type { RealtimeEvent, RealtimeUsage } from '@parley/core';
import { endAssistantMessage } from '@parley/core/internal';
import { decodeBase64 } from './base64.js';
import type { GeminiFunctionCall, GeminiServerContent, GeminiUsageMetadata } from './wire/live-wire.js';

interface Message {
  itemId: string;
  audio: boolean;
  transcript: string;
  text: string;
}

interface Turn {
  responseId: string;
  clientRequestId: string | undefined;
  message: Message | undefined;
  interrupted: boolean;
  /** The app asked to stop it: its interruption is the app's, not the user's. */
  cancelled: boolean;
  usage: RealtimeUsage | undefined;
}

/** A call the model made: the id the service gave it (if any) and its name, which a response must repeat. */
export interface ModelCall {
  wireId: string | undefined;
  name: string;
}

/**
 * Gemini's model turns as the seam's responses. The service has no response, item or event ids: a turn is one
 * response from its first output (content or a tool call) to `turnComplete`; each run of spoken or written content
 * within it is one assistant message, ended by a tool call, `generationComplete` or the turn's end. The ids are the
 * adapter's own and never go on the wire. A tool call ends its response: the model waits for the tool responses and
 * then answers in a response of its own. A turn the user's activity interrupted ends `cancelled` with reason
 * `user_turn`. The user's turns exist only as their transcription: one user item per run of input transcription,
 * final when the service says `finished` or when the model's turn begins.
 */
export class GeminiTurns {
  readonly #emit: (event: RealtimeEvent) => void;
  readonly #nextId: (prefix: string) => string;
  #turn: Turn | undefined;
  /** Response requests the next turns answer, in order. */
  #requests: string[] = [];
  #user: { itemId: string; text: string } | undefined;
  /** `input_speech_started` went out and its user turn has not ended yet. */
  #speaking = false;
  readonly #calls = new Map<string, ModelCall>();

  constructor(emit: (event: RealtimeEvent) => void, nextId: (prefix: string) => string) {
    this.#emit = emit;
    this.#nextId = nextId;
  }

  /** Whether a model turn is under way. */
  get active(): boolean {
    return this.#turn !== undefined;
  }

  /** Whether a turn is under way that the service has not stopped yet (it said `interrupted` for a stopped one). */
  get stoppable(): boolean {
    return this.#turn !== undefined && !this.#turn.interrupted;
  }

  /** Whether the app is stopping the turn under way (it ends once the service says so). */
  get stopping(): boolean {
    return this.#turn?.cancelled === true;
  }

  /** The next turn that starts answers this response request. */
  expectTurn(clientRequestId: string): void {
    this.#requests.push(clientRequestId);
  }

  /** Whether a response request is waiting for its turn. */
  get awaitingTurn(): boolean {
    return this.#requests.length > 0;
  }

  call(callId: string): ModelCall | undefined {
    return this.#calls.get(callId);
  }

  forgetCall(callId: string): void {
    this.#calls.delete(callId);
  }

  serverContent(content: GeminiServerContent): void {
    const input = content.inputTranscription;
    if (input?.text) this.#userText(input.text, input.finished === true);
    else if (input?.finished === true) this.#finishUser();
    const parts = content.modelTurn?.parts;
    if (parts) {
      for (const part of parts) {
        const data = part.inlineData?.data;
        if (data !== undefined && part.inlineData?.mimeType.startsWith('audio/')) {
          const message = this.#message();
          message.audio = true;
          this.#emit({
            type: 'audio_delta',
            responseId: (this.#turn as Turn).responseId,
            itemId: message.itemId,
            audio: decodeBase64(data),
          });
        } else if (part.text !== undefined && (part as { thought?: boolean }).thought !== true) {
          const message = this.#message();
          message.text += part.text;
          this.#emit({
            type: 'text_delta',
            responseId: (this.#turn as Turn).responseId,
            itemId: message.itemId,
            delta: part.text,
          });
        }
      }
    }
    const output = content.outputTranscription?.text;
    if (output) {
      const message = this.#message();
      message.transcript += output;
      this.#emit({
        type: 'transcript_delta',
        responseId: (this.#turn as Turn).responseId,
        itemId: message.itemId,
        delta: output,
      });
    }
    if (content.interrupted === true && this.#turn) {
      this.#turn.interrupted = true;
      // Unless the app stopped it, the service stopped the turn because it heard the user: the seam's sign that the
      // user started speaking.
      if (!this.#turn.cancelled && !this.#speaking) {
        this.#speaking = true;
        this.#emit({ type: 'input_speech_started' });
      }
    }
    if (content.generationComplete === true) this.#endMessage();
    if (content.turnComplete === true) this.#endTurn();
  }

  /**
   * The model calls tools and stops generating until their responses: the response ends here (completed), and what
   * the model says after the responses is the next one, which the service starts by itself.
   */
  toolCall(calls: readonly GeminiFunctionCall[]): void {
    const turn = this.#start();
    this.#endMessage();
    for (const call of calls) {
      const callId = call.id ?? this.#nextId('call');
      this.#calls.set(callId, { wireId: call.id, name: call.name });
      this.#emit({
        type: 'function_call',
        responseId: turn.responseId,
        itemId: this.#nextId('item'),
        callId,
        name: call.name,
        arguments: JSON.stringify(call.args ?? {}),
      });
    }
    this.#endTurn();
  }

  /** The app stops the turn under way (the adapter interrupts it with client content). */
  cancelling(): void {
    if (this.#turn) this.#turn.cancelled = true;
  }

  usage(metadata: GeminiUsageMetadata): void {
    if (this.#turn) this.#turn.usage = usageOf(metadata);
  }

  /** The connection ended: a turn under way never completes (the session reports it lost). */
  cut(): void {
    this.#turn = undefined;
    this.#user = undefined;
    this.#speaking = false;
    this.#requests = [];
  }

  #userText(text: string, finished: boolean): void {
    if (!this.#user) {
      this.#user = { itemId: this.#nextId('item'), text: '' };
      this.#emit({ type: 'input_audio_committed', itemId: this.#user.itemId });
    }
    this.#user.text += text;
    this.#emit({ type: 'input_transcription', itemId: this.#user.itemId, text, final: false });
    if (finished) this.#finishUser();
  }

  /** The user's turn is over (its transcript is final, or the model answers): the speech that interrupted ended. */
  #speechEnded(): void {
    if (!this.#speaking) return;
    this.#speaking = false;
    this.#emit({ type: 'input_speech_stopped' });
  }

  #finishUser(): void {
    this.#speechEnded();
    const user = this.#user;
    if (!user) return;
    this.#user = undefined;
    this.#emit({ type: 'input_transcription', itemId: user.itemId, text: user.text, final: true });
  }

  #start(): Turn {
    if (this.#turn) return this.#turn;
    this.#finishUser();
    const clientRequestId = this.#requests.shift();
    const turn: Turn = {
      responseId: this.#nextId('resp'),
      clientRequestId,
      message: undefined,
      interrupted: false,
      cancelled: false,
      usage: undefined,
    };
    this.#turn = turn;
    this.#emit({
      type: 'response_started',
      responseId: turn.responseId,
      ephemeral: false,
      ...(clientRequestId !== undefined && { clientRequestId }),
    });
    return turn;
  }

  #message(): Message {
    const turn = this.#start();
    if (!turn.message) {
      turn.message = { itemId: this.#nextId('item'), audio: false, transcript: '', text: '' };
      this.#emit({ type: 'message_started', responseId: turn.responseId, itemId: turn.message.itemId });
    }
    return turn.message;
  }

  #endMessage(): void {
    const turn = this.#turn;
    const message = turn?.message;
    if (!turn || !message) return;
    turn.message = undefined;
    endAssistantMessage(this.#emit, {
      responseId: turn.responseId,
      itemId: message.itemId,
      audio: message.audio,
      transcript: message.transcript,
      text: message.text,
      incomplete: turn.interrupted,
    });
  }

  #endTurn(): void {
    const turn = this.#turn;
    if (!turn) return;
    this.#endMessage();
    this.#turn = undefined;
    this.#emit({
      type: 'response_done',
      responseId: turn.responseId,
      status: turn.interrupted ? 'cancelled' : 'completed',
      ephemeral: false,
      ...(turn.clientRequestId !== undefined && { clientRequestId: turn.clientRequestId }),
      ...(turn.usage && { usage: turn.usage }),
      ...(turn.interrupted && {
        reason: turn.cancelled ? ('client_cancelled' as const) : ('user_turn' as const),
      }),
    });
  }
}

function usageOf(metadata: GeminiUsageMetadata): RealtimeUsage {
  const count = (details: GeminiUsageMetadata['promptTokensDetails'], modality: string) =>
    details?.find((d) => d.modality === modality)?.tokenCount;
  const inputTokens = metadata.promptTokenCount ?? 0;
  const outputTokens = metadata.responseTokenCount ?? 0;
  const inputText = count(metadata.promptTokensDetails, 'TEXT');
  const inputAudio = count(metadata.promptTokensDetails, 'AUDIO');
  const outputText = count(metadata.responseTokensDetails, 'TEXT');
  const outputAudio = count(metadata.responseTokensDetails, 'AUDIO');
  const cached = metadata.cachedContentTokenCount;
  const inputDetails = {
    ...(inputText !== undefined && { textTokens: inputText }),
    ...(inputAudio !== undefined && { audioTokens: inputAudio }),
    ...(cached !== undefined && { cachedTokens: cached }),
  };
  const outputDetails = {
    ...(outputText !== undefined && { textTokens: outputText }),
    ...(outputAudio !== undefined && { audioTokens: outputAudio }),
  };
  return {
    inputTokens,
    outputTokens,
    totalTokens: metadata.totalTokenCount ?? inputTokens + outputTokens,
    ...(Object.keys(inputDetails).length > 0 && { inputTokenDetails: inputDetails }),
    ...(Object.keys(outputDetails).length > 0 && { outputTokenDetails: outputDetails }),
  };
}
