// The measuring window of an audio benchmark client: this process's CPU time (user + system, all threads) from the
// first audio callback to the last of a run of `audioDeltas` deltas of `bytesPerDelta` bytes each.

/** Starts a window; `onAudio` is the app's audio callback, `report(kind)` sends the result over IPC and disconnects. */
export function audioWindow(audioDeltas, bytesPerDelta) {
  let events = 0;
  let bytes = 0;
  let startCpu;
  let windowCpu;
  let startWall = 0;
  let windowWallMs = 0;
  let markLast;
  const lastAudio = new Promise((resolve) => {
    markLast = resolve;
  });
  return {
    /** Resolves at the last audio delta of the run. */
    lastAudio,
    onAudio(data) {
      events++;
      bytes += data.byteLength;
      if (events === 1) {
        startCpu = process.cpuUsage();
        startWall = performance.now();
      } else if (events === audioDeltas) {
        windowCpu = process.cpuUsage(startCpu);
        windowWallMs = performance.now() - startWall;
        markLast();
      }
    },
    /** Checks the run got every delta whole, then reports `{ microsPerEvent, … }` to the parent process. */
    report(kind) {
      if (events !== audioDeltas || bytes !== audioDeltas * bytesPerDelta) {
        throw new Error(
          `${kind}: got ${events} audio events / ${bytes} bytes, expected ${audioDeltas} / ${audioDeltas * bytesPerDelta}.`,
        );
      }
      const windowMicros = windowCpu.user + windowCpu.system;
      process.send({
        kind,
        events,
        microsPerEvent: windowMicros / (audioDeltas - 1),
        userMicros: windowCpu.user,
        systemMicros: windowCpu.system,
        wallMs: windowWallMs,
      });
      process.disconnect();
    },
  };
}
