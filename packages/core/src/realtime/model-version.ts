import { UserError } from '../errors.js';
import type { RealtimeCommand, RealtimeConnection, RealtimeEvent, RealtimeModel } from './seam.js';
import { REALTIME_SPECIFICATION_VERSION } from './seam.js';
import type {
  RealtimeCommandV1,
  RealtimeConnectionV1,
  RealtimeEventV1,
  RealtimeModelV1,
  RealtimeResponseEndReasonV1,
} from './spec/v1/index.js';
import { REALTIME_SPECIFICATION_VERSION_V1 } from './spec/v1/index.js';
import type { RealtimeResponseEndReasonV2 } from './spec/v2/index.js';

/** A realtime model of any specification version this release of @parley/core accepts. */
export type AnyRealtimeModel = RealtimeModel | RealtimeModelV1;

/**
 * `model` speaking the current specification: itself when it implements it, a version 1 model behind a translation of
 * the three names version 2 changed; `undefined` for a version this release does not know.
 */
export function currentRealtimeModel(model: AnyRealtimeModel): RealtimeModel | undefined {
  if (model.specificationVersion === REALTIME_SPECIFICATION_VERSION) return model;
  if (model.specificationVersion === REALTIME_SPECIFICATION_VERSION_V1) return upgradeV1(model);
  return undefined;
}

function upgradeV1(model: RealtimeModelV1): RealtimeModel {
  return {
    specificationVersion: REALTIME_SPECIFICATION_VERSION,
    provider: model.provider,
    ...(model.modelId !== undefined && { modelId: model.modelId }),
    get capabilities() {
      return model.capabilities;
    },
    connect: async (options) => new UpgradedConnectionV1(await model.connect(options)),
  };
}

class UpgradedConnectionV1 implements RealtimeConnection {
  readonly #inner: RealtimeConnectionV1;

  constructor(inner: RealtimeConnectionV1) {
    this.#inner = inner;
  }

  get status() {
    return this.#inner.status;
  }
  get expiresAt() {
    return this.#inner.expiresAt;
  }
  get confirmedConfig() {
    return this.#inner.confirmedConfig;
  }
  get resumed() {
    return this.#inner.resumed;
  }
  get audioFormats() {
    return this.#inner.audioFormats;
  }
  get servicePlayback() {
    return this.#inner.servicePlayback;
  }

  send(command: RealtimeCommand): void {
    this.#inner.send(commandV1(command));
  }

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    return this.#inner.onEvent((event) => listener(eventV2(event)));
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

function commandV1(command: RealtimeCommand): RealtimeCommandV1 {
  switch (command.type) {
    case 'createResponse': {
      const { ephemeral, ...rest } = command;
      return { ...rest, conversation: ephemeral ? 'none' : 'default' };
    }
    case 'truncateItem':
      return { type: 'truncateItem', itemId: command.itemId, audioEndMs: command.heardMs };
    case 'sendDtmf':
      throw new UserError('A version 1 realtime model carries no phone call: it cannot press a key.', {
        code: 'capability_not_supported',
      });
    case 'sendHostedToolApproval':
      throw new UserError('A version 1 realtime model runs no hosted tools: it has no approval to answer.', {
        code: 'capability_not_supported',
      });
    default:
      return command;
  }
}

function eventV2(event: RealtimeEventV1): RealtimeEvent {
  switch (event.type) {
    case 'response_started': {
      const { conversation, ...rest } = event;
      return { ...rest, ephemeral: conversation === 'none' };
    }
    case 'response_done': {
      const { conversation, reason, ...rest } = event;
      return {
        ...rest,
        ephemeral: conversation === 'none',
        ...(reason !== undefined && { reason: endReasonV2(reason) }),
      };
    }
    default:
      return event;
  }
}

function endReasonV2(reason: RealtimeResponseEndReasonV1): RealtimeResponseEndReasonV2 {
  return reason === 'turn_detected' ? 'user_turn' : reason;
}
