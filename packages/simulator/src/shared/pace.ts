/**
 * How fast simulated responses stream. The service does not answer instantly: the first output comes after a
 * moment, then audio is generated faster than real time but not at once. Responses therefore stay active for a
 * while, and clients meet the races the service has (a second `response.create`, a late `response.cancel`, tool
 * outputs that arrive while a response still streams).
 */
export interface SimulatorPace {
  /** Time from `response.created` to the response's first output. Default {@link DEFAULT_PACE}`.firstOutputMs`. */
  firstOutputMs?: number;
  /**
   * How many times faster than real time the model generates: 1 s of audio takes `1000 / speed` ms to stream.
   * Text and function-call arguments stream at the same rate (one character counts as `msPerChar` of audio).
   * Default {@link DEFAULT_PACE}`.speed`.
   */
  speed?: number;
}

/** `'instant'`: every response streams to `response.done` while `response.create` is handled (no time passes). */
export type SimulatorPacing = SimulatorPace | 'instant';

/** The default pace: first output after 500 ms, generation 5× faster than real time. */
export const DEFAULT_PACE: Readonly<Required<SimulatorPace>> = Object.freeze({
  firstOutputMs: 500,
  speed: 5,
});

/** A resolved pace; `undefined` is instant. */
export type Pace = Readonly<Required<SimulatorPace>> | undefined;

/** Validates `pacing` (default paced) and fills in the defaults. */
export function resolvePace(pacing: SimulatorPacing | undefined): Pace {
  if (pacing === 'instant') return undefined;
  if (pacing !== undefined && (typeof pacing !== 'object' || pacing === null)) {
    throw new TypeError("Simulator option 'pace' must be 'instant' or { firstOutputMs?, speed? }.");
  }
  for (const key of Object.keys(pacing ?? {})) {
    if (key !== 'firstOutputMs' && key !== 'speed') {
      throw new TypeError(`Unknown simulator pace option '${key}'; expected firstOutputMs or speed.`);
    }
  }
  const firstOutputMs = pacing?.firstOutputMs ?? DEFAULT_PACE.firstOutputMs;
  const speed = pacing?.speed ?? DEFAULT_PACE.speed;
  if (!Number.isFinite(firstOutputMs) || firstOutputMs < 0) {
    throw new TypeError('Simulator pace firstOutputMs must be a finite number ≥ 0.');
  }
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new TypeError(
      "Simulator pace speed must be a finite number > 0 (use pace: 'instant' for no delay).",
    );
  }
  return { firstOutputMs, speed };
}
