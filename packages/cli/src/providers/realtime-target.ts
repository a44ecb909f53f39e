import { AzureOpenAIRealtimeModel } from '@parley/azure';
import type { Clock, RealtimeModel } from '@parley/core';
import { OpenAIRealtimeModel } from '@parley/openai';
import {
  type RealtimeBrain,
  type RealtimeSimulator,
  startRealtimeSimulator,
  type Transcriber,
} from '@parley/simulator';
import { providerEnvironment } from './environment.js';

/** The realtime providers of the voice commands. */
export type RealtimeProviderName = 'simulator' | 'openai' | 'azure';

/** Where a voice command's session connects: the model, and the embedded simulator when it is the target. */
export interface RealtimeTarget {
  model: RealtimeModel;
  /** How the output names it. */
  label: string;
  /** The embedded simulator, for `simulator`. */
  sim?: RealtimeSimulator;
  /** Stops the simulator, if any. Idempotent. */
  close(): Promise<void>;
}

/** The simulator accepts any key; this one only shows where a real key would go. */
const SIMULATOR_KEY = 'sk-simulator-demo';
const DEFAULT_REALTIME_MODEL = 'gpt-realtime';

/**
 * The model for `provider`: the embedded simulator on 127.0.0.1 (answering with `brain`), or the real service with
 * the environment's credentials (a missing variable is named before anything starts).
 */
export async function realtimeTarget(
  provider: RealtimeProviderName,
  env: Readonly<Record<string, string | undefined>>,
  brain: RealtimeBrain,
  /** The clock the embedded simulator paces its responses on. Default the system clock. */
  simulatorClock?: Clock,
  /** How the embedded simulator transcribes the caller's audio. Default: the words `speechAudio` embeds. */
  transcribe?: Transcriber,
): Promise<RealtimeTarget> {
  if (provider === 'openai') {
    const { OPENAI_API_KEY } = providerEnvironment('openai', env);
    const name = env.OPENAI_REALTIME_MODEL || DEFAULT_REALTIME_MODEL;
    const url = realtimeUrl(env.OPENAI_BASE_URL);
    return {
      model: new OpenAIRealtimeModel({ apiKey: OPENAI_API_KEY, model: name, ...(url && { url }) }),
      label: `OpenAI Realtime (${name}${url ? ` at ${new URL(url).host}` : ''})`,
      close: async () => {},
    };
  }
  if (provider === 'azure') {
    const vars = providerEnvironment('azure', env);
    return {
      model: new AzureOpenAIRealtimeModel({
        endpoint: vars.AZURE_OPENAI_ENDPOINT,
        apiKey: vars.AZURE_OPENAI_API_KEY,
        deployment: vars.AZURE_OPENAI_DEPLOYMENT,
      }),
      label: `Azure OpenAI Realtime (deployment ${vars.AZURE_OPENAI_DEPLOYMENT} at ${new URL(vars.AZURE_OPENAI_ENDPOINT).host})`,
      close: async () => {},
    };
  }
  const sim = await startRealtimeSimulator({
    port: 0,
    brain,
    ...(simulatorClock && { clock: simulatorClock }),
    ...(transcribe && { transcribe }),
  });
  return {
    model: new OpenAIRealtimeModel({ apiKey: SIMULATOR_KEY, url: sim.url }),
    label: `the OpenAI Realtime simulator on ${new URL(sim.url).host}`,
    sim,
    close: () => sim.close(),
  };
}

/** The Realtime endpoint under an `OPENAI_BASE_URL` (`https://host/v1` → `wss://host/v1/realtime`), if one is set. */
function realtimeUrl(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  const url = new URL(baseUrl);
  url.protocol = url.protocol === 'http:' || url.protocol === 'ws:' ? 'ws:' : 'wss:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/realtime`;
  return url.toString();
}
