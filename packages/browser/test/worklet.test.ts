// The worklet module's processors, run here the way the audio thread runs them: constructed by name, fed one render
// quantum (128 frames) per process() call, talking to the main thread only through their port.
import { workletSource } from '@parley/browser';
import { describe, expect, test } from 'vitest';

const QUANTUM = 128;

type Message = Record<string, unknown> & { type?: string };

class FakePort {
  readonly sent: unknown[] = [];
  onmessage: ((event: { data: unknown }) => void) | null = null;
  postMessage(message: unknown): void {
    this.sent.push(message);
  }
  deliver(data: unknown): void {
    this.onmessage?.({ data });
  }
  take(): Message[] {
    return this.sent.splice(0) as Message[];
  }
}

interface Processor {
  port: FakePort;
  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean;
}

function processors(): Map<string, new (options?: unknown) => Processor> {
  const registered = new Map<string, new (options?: unknown) => Processor>();
  class AudioWorkletProcessor {
    readonly port = new FakePort();
  }
  new Function('AudioWorkletProcessor', 'registerProcessor', workletSource())(
    AudioWorkletProcessor,
    (name: string, processor: new () => Processor) => registered.set(name, processor),
  );
  return registered;
}

function player(): Processor {
  const Player = processors().get('parley-player');
  if (!Player) throw new Error('parley-player is not registered');
  return new Player();
}

/** The context's frame count, as the audio thread's global `currentFrame`: the first frame of the next quantum. */
const scope = globalThis as { currentFrame?: number };

/** One render quantum of output (mono). */
function render(processor: Processor): Float32Array {
  const out = new Float32Array(QUANTUM);
  expect(processor.process([], [[out]])).toBe(true);
  scope.currentFrame = (scope.currentFrame ?? 0) + QUANTUM;
  return out;
}

function ramp(length: number, from: number): Float32Array {
  return Float32Array.from({ length }, (_, i) => (from + i) / 1000);
}

describe('parley-player', () => {
  test('plays queued audio in order and reports the frames of each message after every quantum', () => {
    scope.currentFrame = 1000;
    const p = player();
    p.port.deliver({ type: 'push', itemId: 'a', samples: ramp(200, 0) });
    p.port.deliver({ type: 'push', itemId: 'b', samples: ramp(100, 200) });
    p.port.deliver({ type: 'end', itemId: 'a' });

    const first = render(p);
    expect(Array.from(first)).toEqual(Array.from(ramp(128, 0)));
    // Each report says when its last frame was rendered (the context's frame count) and how much is still queued.
    expect(p.port.take()).toEqual([{ type: 'played', itemId: 'a', frames: 128, at: 1128, queued: 72 }]);

    const second = render(p);
    // The second quantum ends message a (72 frames) and starts b without a gap.
    expect(Array.from(second)).toEqual(Array.from(ramp(128, 128)));
    expect(p.port.take()).toEqual([
      { type: 'finished', itemId: 'a', frames: 200 },
      { type: 'played', itemId: 'b', frames: 56, at: 1256, queued: 44 },
    ]);

    // b has not ended: its last frames play, then silence without reports (nothing more came out).
    const third = render(p);
    expect(Array.from(third.subarray(0, 44))).toEqual(Array.from(ramp(44, 256)));
    expect(third.subarray(44).every((s) => s === 0)).toBe(true);
    // It ran dry 44 frames into the quantum: that is where its last frame was rendered.
    expect(p.port.take()).toEqual([{ type: 'played', itemId: 'b', frames: 100, at: 1300, queued: 0 }]);
    expect(render(p).every((s) => s === 0)).toBe(true);
    expect(p.port.take()).toEqual([]);
    // Its end, arriving once it played out, finishes it at once.
    p.port.deliver({ type: 'end', itemId: 'b' });
    expect(p.port.take()).toEqual([{ type: 'finished', itemId: 'b', frames: 100 }]);
  });

  test('a clear stops playback within one render quantum and says what each queued message had played', () => {
    scope.currentFrame = 0;
    const p = player();
    p.port.deliver({ type: 'push', itemId: 'a', samples: ramp(1000, 1) });
    p.port.deliver({ type: 'push', itemId: 'b', samples: ramp(500, 1) });
    render(p);
    render(p);
    p.port.take();
    p.port.deliver({ type: 'clear' });
    expect(p.port.take()).toEqual([
      {
        type: 'cleared',
        played: [
          ['a', 256],
          ['b', 0],
        ],
      },
    ]);
    // The very next quantum is silent, and nothing is reported as played any more.
    expect(render(p).every((s) => s === 0)).toBe(true);
    expect(p.port.take()).toEqual([]);
    // Audio queued after the clear (the next response) plays from its start.
    p.port.deliver({ type: 'push', itemId: 'c', samples: ramp(10, 5) });
    expect(Array.from(render(p).subarray(0, 10))).toEqual(Array.from(ramp(10, 5)));
    expect(p.port.take()).toEqual([{ type: 'played', itemId: 'c', frames: 10, at: 394, queued: 0 }]);
  });

  test('a second clear, or a clear with nothing queued, reports nothing played', () => {
    const p = player();
    p.port.deliver({ type: 'clear' });
    p.port.deliver({ type: 'clear' });
    expect(p.port.take()).toEqual([
      { type: 'cleared', played: [] },
      { type: 'cleared', played: [] },
    ]);
  });

  test('stop ends the processor (the node can be collected)', () => {
    const p = player();
    p.port.deliver({ type: 'stop' });
    expect(p.process([], [[new Float32Array(QUANTUM)]])).toBe(false);
  });

  test('copies the mono signal to every output channel', () => {
    const p = player();
    p.port.deliver({ type: 'push', itemId: 'a', samples: ramp(128, 3) });
    const left = new Float32Array(QUANTUM);
    const right = new Float32Array(QUANTUM);
    p.process([], [[left, right]]);
    expect(Array.from(right)).toEqual(Array.from(left));
  });
});

describe('parley-capture', () => {
  function capture(frameSamples: number): Processor {
    const Capture = processors().get('parley-capture');
    if (!Capture) throw new Error('parley-capture is not registered');
    return new Capture({ processorOptions: { frameSamples } });
  }

  test('posts PCM16 frames of the configured size, scaled and clamped', () => {
    const c = capture(200);
    const quantum = (value: number) => new Float32Array(QUANTUM).fill(value);
    expect(c.process([[quantum(0.5)]], [])).toBe(true);
    expect(c.port.take()).toEqual([]);
    c.process([[quantum(-2)]], []);
    const [frame] = c.port.take() as unknown as Int16Array[];
    expect(frame).toBeInstanceOf(Int16Array);
    expect(frame?.length).toBe(200);
    expect(frame?.[0]).toBe(Math.round(0.5 * 32767));
    expect(frame?.[127]).toBe(16384);
    // Out of range input is clamped to full scale.
    expect(frame?.[128]).toBe(-32768);
    expect(frame?.[199]).toBe(-32768);
  });

  test('mixes several input channels down to mono', () => {
    const c = capture(128);
    c.process([[new Float32Array(QUANTUM).fill(0.5), new Float32Array(QUANTUM).fill(-0.25)]], []);
    const [frame] = c.port.take() as unknown as Int16Array[];
    expect(frame?.[0]).toBe(Math.round(0.125 * 32767));
  });

  test('an input without channels (the track ended) posts nothing; stop ends the processor', () => {
    const c = capture(128);
    expect(c.process([[]], [])).toBe(true);
    expect(c.port.take()).toEqual([]);
    c.port.deliver({ type: 'stop' });
    expect(c.process([[new Float32Array(QUANTUM)]], [])).toBe(false);
  });
});
