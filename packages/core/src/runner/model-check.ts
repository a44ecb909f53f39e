import { UserError } from '../errors.js';
import { MODEL_SPECIFICATION_VERSION, type Model } from '../model.js';
import { REALTIME_SPECIFICATION_VERSION } from '../realtime/seam.js';

const checked = new WeakSet<object>();
const checkedForStreaming = new WeakSet<object>();

function describe(model: unknown): string {
  const provider = (model as { provider?: unknown } | null)?.provider;
  return typeof provider === 'string' ? `The ${provider} model` : 'The model';
}

/**
 * Checks that `model` is a text model this core can drive (and can stream, for a streamed run), so a wrong
 * object fails with a UserError that says what to do instead of a TypeError deep in the run.
 */
export function checkTextModel(model: Model, streamed: boolean): Model {
  if (streamed ? checkedForStreaming.has(model) : checked.has(model)) return model;
  const candidate = model as Partial<Model> | null;
  if (typeof candidate !== 'object' || candidate === null) {
    throw new UserError(
      `run() needs a Model (e.g. new OpenAIResponsesModel(…) or new MockModel(…)), got ${String(model)}.`,
      { code: 'invalid_model' },
    );
  }
  const version: unknown = candidate.specificationVersion;
  if (version === REALTIME_SPECIFICATION_VERSION) {
    throw new UserError(
      `${describe(model)} is a realtime model: run it with new RealtimeSession(agent, { model }), or pass run() a text model (e.g. OpenAIResponsesModel).`,
      { code: 'invalid_model' },
    );
  }
  if (version !== MODEL_SPECIFICATION_VERSION) {
    throw new UserError(
      `${describe(model)} implements model interface ${JSON.stringify(version)}, but this @parley/core drives "${MODEL_SPECIFICATION_VERSION}". Use a provider package built for this version of @parley/core.`,
      { code: 'invalid_model' },
    );
  }
  if (typeof candidate.getResponse !== 'function') {
    throw new UserError(`${describe(model)} has no getResponse(request, options) method.`, {
      code: 'invalid_model',
    });
  }
  checked.add(model);
  if (!streamed) return model;
  if (typeof candidate.streamResponse !== 'function') {
    throw new UserError(
      `${describe(model)} cannot stream (it has no streamResponse method): run without { stream: true }, or use a model that streams.`,
      { code: 'invalid_model' },
    );
  }
  checkedForStreaming.add(model);
  return model;
}
