import { type RealtimeSessionConfig, UserError } from '@parley/core';
import type { ResolvedGeminiOptions } from './options.js';
import type {
  GeminiAutomaticActivityDetection,
  GeminiRealtimeInputConfig,
  GeminiSetup,
} from './wire/live-wire.js';

/** The detector settings `turnDetection.providerOptions` may carry (the service's own names). */
const DETECTOR_KEYS = new Set(['startOfSpeechSensitivity', 'endOfSpeechSensitivity', 'prefixPaddingMs']);

/** The model as `setup` names it: `models/<name>`, or the Vertex AI publisher path. */
export function setupModel(options: ResolvedGeminiOptions): string {
  const { credentials, model } = options;
  return credentials.kind === 'vertex'
    ? `projects/${credentials.project}/locations/${credentials.location}/publishers/google/models/${model}`
    : `models/${model}`;
}

/** Whether the configuration leaves turn-taking to the app (push-to-talk: `activityStart` / `activityEnd`). */
export function appDrivenActivity(config: RealtimeSessionConfig): boolean {
  return config.turnDetection === null;
}

function realtimeInputConfig(config: RealtimeSessionConfig): GeminiRealtimeInputConfig | undefined {
  const detection = config.turnDetection;
  if (detection === null) return { automaticActivityDetection: { disabled: true } };
  if (detection === undefined) return undefined;
  if (detection.createResponse === false) {
    throw new UserError(
      'Gemini Live answers every turn its activity detection ends: turnDetection.createResponse: false is not ' +
        'supported. Use turnDetection: null (push-to-talk) to decide when the user has finished.',
      { code: 'invalid_option' },
    );
  }
  const automatic: GeminiAutomaticActivityDetection = {};
  if (detection.silenceDurationMs !== undefined) automatic.silenceDurationMs = detection.silenceDurationMs;
  for (const [key, value] of Object.entries(detection.providerOptions ?? {})) {
    if (!DETECTOR_KEYS.has(key)) {
      throw new UserError(
        `Unknown Gemini turn detection option '${key}'; expected ${[...DETECTOR_KEYS].join(', ')}.`,
        { code: 'invalid_option' },
      );
    }
    (automatic as Record<string, unknown>)[key] = value;
  }
  return {
    ...(Object.keys(automatic).length > 0 && { automaticActivityDetection: automatic }),
    ...(detection.interruptResponse === false && { activityHandling: 'NO_INTERRUPTION' as const }),
  };
}

/**
 * The `setup` a session configuration and the model's options produce. `handle` resumes a session the service kept;
 * the configuration may differ from the one it started with (the model may not).
 */
export function toSetup(
  options: ResolvedGeminiOptions,
  config: RealtimeSessionConfig,
  handle: string | undefined,
): GeminiSetup {
  const voice = config.voice ?? options.voice;
  const text = config.outputModalities?.length === 1 && config.outputModalities[0] === 'text';
  const setup: GeminiSetup = {
    model: setupModel(options),
    generationConfig: {
      responseModalities: [text ? 'TEXT' : 'AUDIO'],
      ...(voice !== undefined && {
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: voice } } },
      }),
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      ...(options.maxOutputTokens !== undefined && { maxOutputTokens: options.maxOutputTokens }),
    },
  };
  if (config.instructions) setup.systemInstruction = { parts: [{ text: config.instructions }] };
  if (config.tools && config.tools.length > 0) {
    setup.tools = [
      {
        functionDeclarations: config.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: tool.parameters,
        })),
      },
    ];
  }
  const input = realtimeInputConfig(config);
  if (input && Object.keys(input).length > 0) setup.realtimeInputConfig = input;
  if (options.sessionResumption) {
    setup.sessionResumption = { ...(handle !== undefined && { handle }), transparent: true };
  }
  const compression = options.compression;
  if (compression) {
    setup.contextWindowCompression = {
      slidingWindow:
        compression.targetTokens === undefined ? {} : { targetTokens: String(compression.targetTokens) },
      ...(compression.triggerTokens !== undefined && { triggerTokens: String(compression.triggerTokens) }),
    };
  }
  if (config.inputTranscription !== null) setup.inputAudioTranscription = {};
  if (options.outputTranscription && !text) setup.outputAudioTranscription = {};
  return setup;
}
