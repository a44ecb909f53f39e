/**
 * The two AudioWorklet processors, as the source of one worklet module. They run on the audio rendering thread, in
 * a scope of their own (no imports, no DOM), so they are plain JavaScript kept as text: `worklet-module.ts` loads
 * it from a Blob URL, which works the same with every bundler (no asset to copy).
 *
 * `parley-capture` turns the microphone's float samples into PCM16 frames at the context's rate and posts each
 * frame (its buffer transferred). `parley-player` plays queued PCM (float, at the context's rate) tagged with the
 * message it belongs to, counts the frames of each message that went out, and reports them after every render
 * quantum in which something played; `clear` empties the queue, so the next quantum is silent.
 *
 * Messages of `parley-player` (main thread → worklet): `{ type: 'push', itemId, samples }`,
 * `{ type: 'end', itemId }` (the message's audio is complete), `{ type: 'clear' }`. Worklet → main thread:
 * `{ type: 'played', itemId, frames, at, queued }` (frames of `itemId` played so far; `at`: the context's frame
 * count when the last of them has been rendered; `queued`: frames of `itemId` still waiting to play), `{ type: 'finished', itemId, frames }`
 * (played to its end), `{ type: 'cleared', played: [[itemId, frames], …] }` (the answer to `clear`: what each
 * message queued at the time had played).
 */
export const WORKLET_SOURCE = `
class ParleyCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.size = options.processorOptions.frameSamples;
    this.frame = new Int16Array(this.size);
    this.filled = 0;
    this.stopped = false;
    this.port.onmessage = (event) => {
      if (event.data && event.data.type === 'stop') this.stopped = true;
    };
  }
  process(inputs) {
    if (this.stopped) return false;
    const channels = inputs[0];
    if (!channels || channels.length === 0) return true;
    const first = channels[0];
    const count = channels.length;
    for (let i = 0; i < first.length; i++) {
      let s = first[i];
      for (let c = 1; c < count; c++) s += channels[c][i];
      s /= count;
      s = s > 1 ? 1 : s < -1 ? -1 : s;
      this.frame[this.filled++] = Math.round(s < 0 ? s * 32768 : s * 32767);
      if (this.filled === this.size) {
        this.port.postMessage(this.frame, [this.frame.buffer]);
        this.frame = new Int16Array(this.size);
        this.filled = 0;
      }
    }
    return true;
  }
}

class ParleyPlayer extends AudioWorkletProcessor {
  constructor() {
    super();
    this.queue = [];
    this.head = 0;
    this.offset = 0;
    this.frames = new Map();
    this.pending = new Map();
    this.ended = new Set();
    this.stopped = false;
    this.port.onmessage = (event) => this.receive(event.data);
  }
  receive(message) {
    if (message.type === 'push') {
      this.queue.push(message);
      if (!this.frames.has(message.itemId)) this.frames.set(message.itemId, 0);
      this.pending.set(message.itemId, (this.pending.get(message.itemId) ?? 0) + message.samples.length);
    } else if (message.type === 'end') {
      this.ended.add(message.itemId);
      this.finishIfDrained(message.itemId);
    } else if (message.type === 'clear') {
      const played = [];
      for (const [itemId, frames] of this.frames) played.push([itemId, frames]);
      this.queue = [];
      this.head = 0;
      this.offset = 0;
      this.frames.clear();
      this.pending.clear();
      this.ended.clear();
      this.port.postMessage({ type: 'cleared', played });
    } else if (message.type === 'stop') {
      this.stopped = true;
    }
  }
  queued(itemId) {
    for (let i = this.head; i < this.queue.length; i++) if (this.queue[i].itemId === itemId) return true;
    return false;
  }
  finishIfDrained(itemId) {
    if (!this.ended.has(itemId) || this.queued(itemId)) return;
    const frames = this.frames.get(itemId) ?? 0;
    this.frames.delete(itemId);
    this.pending.delete(itemId);
    this.ended.delete(itemId);
    this.port.postMessage({ type: 'finished', itemId, frames });
  }
  process(_inputs, outputs) {
    if (this.stopped) return false;
    const channels = outputs[0];
    const out = channels[0];
    let written = 0;
    let current;
    while (written < out.length && this.head < this.queue.length) {
      const chunk = this.queue[this.head];
      if (current !== undefined && current !== chunk.itemId) this.report(current, written);
      current = chunk.itemId;
      const take = Math.min(out.length - written, chunk.samples.length - this.offset);
      out.set(chunk.samples.subarray(this.offset, this.offset + take), written);
      written += take;
      this.offset += take;
      this.frames.set(chunk.itemId, (this.frames.get(chunk.itemId) ?? 0) + take);
      this.pending.set(chunk.itemId, this.pending.get(chunk.itemId) - take);
      if (this.offset === chunk.samples.length) {
        this.queue[this.head] = undefined;
        this.head++;
        this.offset = 0;
        if (!this.queued(chunk.itemId)) this.finishIfDrained(chunk.itemId);
      }
    }
    if (this.head > 64 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    out.fill(0, written);
    for (let c = 1; c < channels.length; c++) channels[c].set(out);
    if (current !== undefined && this.frames.has(current)) this.report(current, written);
    return true;
  }
  report(itemId, rendered) {
    const frames = this.frames.get(itemId);
    if (frames === undefined) return;
    const at = currentFrame + rendered;
    this.port.postMessage({ type: 'played', itemId, frames, at, queued: this.pending.get(itemId) ?? 0 });
  }
}

registerProcessor('parley-capture', ParleyCapture);
registerProcessor('parley-player', ParleyPlayer);
`;
