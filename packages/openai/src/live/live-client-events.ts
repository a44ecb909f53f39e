import type { ContextAppendKind, RealtimeCommand, RealtimeToolDefinition } from '@parley/core';
import { encodeBase64 } from '../shared/base64.js';
import type { LiveAppendKind, LiveClientEvent } from '../shared/live-wire-events.js';
import type { LiveFunctionTool } from '../shared/live-wire-session.js';
import type { BackendRelay } from './backend-relay.js';
import type { ResolvedLiveOptions } from './options.js';

const WIRE_KIND: Record<ContextAppendKind, LiveAppendKind> = {
  instruction: 'instructions',
  thought: 'thinking',
  commentary: 'commentary',
};

/** The function tools of a seam configuration, as GPT-Live's Responses delegation takes them. */
export function toLiveTools(tools: readonly RealtimeToolDefinition[]): LiveFunctionTool[] {
  return tools.map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.parameters as Record<string, unknown>,
  }));
}

/** What the command side needs of its connection. */
export interface LiveCommandPorts {
  /** Writes one client event of the catalogue. */
  write(event: LiveClientEvent): void;
  /** Writes one frame already serialized (the input audio hot path). */
  transmit(what: string, frame: string): void;
  /** Refuses a command the way a service does: an `error` event after `send` returned. */
  refuse(command: RealtimeCommand, message: string, code?: string): void;
  /** A fresh client event id for a command of `type`. */
  eventId(type: string): string;
  /** The app sent input audio (no silence frame is needed this period). */
  heardFromApp(): void;
  /** Ends the response being spoken (`responseId`, or whichever it is) on the seam. */
  cancelSpeech(responseId: string | undefined): void;
}

/**
 * The GPT-Live half of the codec that writes: seam commands → client events of the wire catalogue. It remembers
 * which command each request id belongs to, so that an error naming it can say which command it refuses.
 */
export class LiveCommands {
  readonly #options: ResolvedLiveOptions;
  readonly #backend: BackendRelay;
  readonly #ports: LiveCommandPorts;
  readonly #requests = new Map<string, RealtimeCommand['type']>();
  /** The instructions the session started with (fixed for its lifetime). */
  readonly #instructions: string | undefined;

  constructor(
    options: ResolvedLiveOptions,
    backend: BackendRelay,
    ports: LiveCommandPorts,
    instructions: string | undefined,
  ) {
    this.#options = options;
    this.#backend = backend;
    this.#ports = ports;
    this.#instructions = instructions;
  }

  send(command: RealtimeCommand): void {
    const ports = this.#ports;
    switch (command.type) {
      case 'appendInputAudio':
        if (this.#options.sessionId !== undefined) {
          ports.refuse(
            command,
            "A SIP call's audio is on the phone line: its sideband takes no input audio.",
          );
          return;
        }
        ports.heardFromApp();
        ports.transmit(
          command.type,
          `{"type":"session.input_audio.append","audio":"${encodeBase64(command.audio)}"}`,
        );
        return;
      case 'commitInputAudio':
        // The voice model end-points by itself; there is nothing to commit.
        return;
      case 'clearOutputAudio':
        // GPT-Live has no such command: the service stops its voice by itself when the caller talks over it.
        return;
      case 'cancelResponse':
        // Nothing on the wire stops the voice: the response ends here, and what it says next is a new one.
        ports.cancelSpeech(command.responseId);
        return;
      case 'appendContext': {
        const responses = this.#options.delegation === 'responses';
        this.#requests.set(command.clientRequestId, 'appendContext');
        ports.write({
          type: `session.${WIRE_KIND[command.kind]}.append`,
          event_id: command.clientRequestId,
          content: command.text,
          delegation_id: responses ? null : (command.delegationId ?? null),
        });
        return;
      }
      case 'sendToolOutput': {
        const result = this.#backend.toolOutput(command.callId, command.output);
        if ('refused' in result) {
          ports.refuse(command, result.refused, 'response_input_buffer_full');
          return;
        }
        ports.write({
          type: 'response.item.create',
          event_id: ports.eventId('sendToolOutput'),
          item: result.item as never,
        });
        this.#backend.outputSent(command.callId);
        return;
      }
      case 'createResponse':
        ports.refuse(
          command,
          'GPT-Live decides by itself when to speak: there is no response to request. Append commentary ' +
            '(appendContext) to make it say something.',
        );
        return;
      case 'updateSession': {
        const { instructions, tools } = command.config;
        if (instructions !== undefined && instructions !== this.#instructions) {
          ports.refuse(
            command,
            'GPT-Live instructions are fixed at session start; append instructions instead.',
          );
          return;
        }
        if (tools !== undefined && this.#options.delegation === 'responses') {
          ports.write({
            type: 'session.update',
            event_id: ports.eventId('updateSession'),
            session: { delegation: { type: 'responses', responses: { tools: toLiveTools(tools) } } },
          });
        }
        return;
      }
      case 'createItem':
      case 'deleteItem':
      case 'truncateItem':
        ports.refuse(command, `GPT-Live has no conversation items: "${command.type}" is not supported.`);
        return;
      case 'sendDtmf': {
        // Only the sideband of a SIP call carries it: elsewhere the service refuses it with an error naming this id.
        const id = ports.eventId('sendDtmf');
        this.#requests.set(id, 'sendDtmf');
        ports.write({ type: 'transport.dtmf.send', event_id: id, event: command.digit });
        return;
      }
    }
  }

  /** The acknowledgement of request `id` arrived: it is no longer pending. */
  acknowledged(id: string): void {
    this.#requests.delete(id);
  }

  /** The command a client event id belongs to (and forgets it), for an error that names it. */
  settle(id: string): RealtimeCommand['type'] | undefined {
    const type = this.#requests.get(id) ?? commandTypeOf(id);
    this.#requests.delete(id);
    return type;
  }
}

function commandTypeOf(eventId: string): RealtimeCommand['type'] | undefined {
  const match = /^parley\.(\w+)\.\d+$/.exec(eventId);
  const type = match?.[1];
  return type === 'updateSession' || type === 'sendToolOutput' ? type : undefined;
}
