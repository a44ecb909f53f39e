/** The tunables of @parley/mock, in one place: the provider rules its mock realtime connection keeps. */

/** 100 ms of audio: the least a commit accepts, like the real service. */
export const MIN_COMMIT_MS = 100;
/** Default length of one scripted audio chunk. */
export const DEFAULT_AUDIO_CHUNK_MS = 100;
/** Default speaking time per character of a scripted message without an audio spec (at least 100 ms). */
export const SPOKEN_MS_PER_CHAR = 20;
