import { BrowserVoiceError } from './errors.js';
import { WORKLET_SOURCE } from './worklet-source.js';

const loaded = new WeakMap<BaseAudioContext, Promise<void>>();

/**
 * Adds Parley's processors (`parley-capture`, `parley-player`) to `context` once. By default the module is a Blob
 * URL made from the bundled source, revoked once loaded; `url` loads a copy served by the app instead (for a
 * Content Security Policy that does not allow `blob:` workers).
 */
export function loadWorkletModule(context: BaseAudioContext, url?: string): Promise<void> {
  let pending = loaded.get(context);
  if (pending) return pending;
  pending = addModule(context, url);
  loaded.set(context, pending);
  pending.catch(() => loaded.delete(context));
  return pending;
}

async function addModule(context: BaseAudioContext, url: string | undefined): Promise<void> {
  if (context.audioWorklet === undefined) {
    throw new BrowserVoiceError(
      'audio_unsupported',
      'This browser has no AudioWorklet (it needs a secure context: https or localhost).',
    );
  }
  const moduleUrl = url ?? URL.createObjectURL(new Blob([WORKLET_SOURCE], { type: 'text/javascript' }));
  try {
    await context.audioWorklet.addModule(moduleUrl);
  } catch (error) {
    throw new BrowserVoiceError(
      'worklet_load_failed',
      url === undefined
        ? "The audio worklet did not load from a blob: URL. If the page's Content Security Policy has no 'blob:' in worker-src, serve the worklet (workletSource()) and pass its URL as workletUrl."
        : `The audio worklet did not load from ${url}; serve the text of workletSource() there as JavaScript.`,
      { cause: error },
    );
  } finally {
    if (url === undefined) URL.revokeObjectURL(moduleUrl);
  }
}

/** The worklet module's JavaScript, for apps that serve it themselves (see `workletUrl`). */
export function workletSource(): string {
  return WORKLET_SOURCE;
}
