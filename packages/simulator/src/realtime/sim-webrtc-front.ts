import { EventEmitter } from 'node:events';
import { Resampler } from '@parley/core';
import type { RTCDataChannel } from 'werift';
import { fromSamples, toSamples } from '../shared/audio-codec.js';
import type { SimulatorSocket } from './sim-connection.js';
import type { PlayoutSink } from './sim-playout.js';

/**
 * The simulator's WebRTC front: it terminates a call's peer connection in Node with werift (a WebRTC stack in
 * TypeScript). Media is G.711 µ-law (PCMU, payload type 0, 8 kHz): every WebRTC stack offers it, and it needs no codec
 * library (Opus would); the simulator reasons in PCM16 24 kHz and converts with Parley's one resampler. Everything is
 * on 127.0.0.1: no test leaves the machine.
 */

/** µ-law at 8 kHz: 160 bytes per 20 ms frame. */
const PCMU_PAYLOAD_TYPE = 0;
const PCMU = { type: 'audio/pcmu', rate: 8000 } as const;
const PCM24 = { type: 'audio/pcm', rate: 24000 } as const;

/** One answered call: what its peer hands to the simulated session (no werift type leaves this file). */
export interface WebRTCCallPeer {
  readonly answerSdp: string;
  /** Plays the service's audio on the call's outgoing track. */
  readonly sink: PlayoutSink;
  /** Resolves with the `oai-events` channel as a simulator socket, once the client opened it. */
  readonly events: Promise<SimulatorSocket>;
  /** Calls `listener` with the caller's audio (PCM16 24 kHz) as it arrives. */
  onAudio(listener: (pcm24: Uint8Array) => void): void;
  close(): Promise<void>;
}

/** A werift data channel as the `ws` subset a simulated connection writes to. */
function channelSocket(channel: RTCDataChannel, close: () => void): SimulatorSocket {
  const emitter = new EventEmitter();
  let closed = false;
  const end = (code: number) => {
    if (closed) return;
    closed = true;
    emitter.emit('close', code, Buffer.from(''));
  };
  channel.onMessage.subscribe((data) => emitter.emit('message', data, typeof data !== 'string'));
  channel.stateChanged.subscribe((state) => {
    if (state === 'closed') end(1000);
  });
  const socket = {
    get bufferedAmount() {
      return channel.bufferedAmount;
    },
    send(data: unknown) {
      if (channel.readyState !== 'open') return;
      channel.send(typeof data === 'string' ? data : Buffer.from(data as Uint8Array));
    },
    close() {
      close();
      end(1000);
    },
    terminate() {
      close();
      end(1006);
    },
    on(event: string, listener: (...args: never[]) => void) {
      emitter.on(event, listener as (...args: unknown[]) => void);
      return socket;
    },
  };
  return socket as unknown as SimulatorSocket;
}

/**
 * Answers a call's SDP offer as the service does: an audio track both ways (PCMU) and the client's `oai-events` data
 * channel. Rejects when werift cannot be loaded or the offer cannot be answered.
 */
export async function answerWebRTCCall(offerSdp: string): Promise<WebRTCCallPeer> {
  const werift = await import('werift');
  const peer = new werift.RTCPeerConnection({
    codecs: {
      audio: [
        new werift.RTCRtpCodecParameters({
          mimeType: 'audio/PCMU',
          clockRate: 8000,
          channels: 1,
          payloadType: PCMU_PAYLOAD_TYPE,
        }),
      ],
    },
    iceUseIpv6: false,
    iceInterfaceAddresses: { udp4: '127.0.0.1' },
    iceAdditionalHostAddresses: ['127.0.0.1'],
  });
  const closePeer = () => {
    void peer.close().catch(() => {});
  };
  let events!: (socket: SimulatorSocket) => void;
  const eventsReady = new Promise<SimulatorSocket>((resolve) => {
    events = resolve;
  });
  peer.onDataChannel.subscribe((channel) => {
    if (channel.label !== 'oai-events') return;
    const socket = channelSocket(channel, closePeer);
    if (channel.readyState === 'open') events(socket);
    else channel.stateChanged.subscribe((state) => state === 'open' && events(socket));
  });
  const audioListeners: ((pcm24: Uint8Array) => void)[] = [];
  const upsample = new Resampler(8000, 24000);
  peer.onTrack.subscribe((track) => {
    track.onReceiveRtp.subscribe((rtp) => {
      if (rtp.header.payloadType !== PCMU_PAYLOAD_TYPE) return;
      const samples = upsample.push(toSamples(PCMU, rtp.payload));
      const pcm24 = fromSamples(
        PCM24,
        Int16Array.from(samples, (s) => Math.max(-32768, Math.min(32767, Math.round(s)))),
      );
      for (const listener of audioListeners) listener(pcm24);
    });
  });
  try {
    await peer.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    const transceiver = peer.getTransceivers().find((t) => t.kind === 'audio');
    if (transceiver === undefined) throw new Error('The SDP offer has no audio section.');
    const outgoing = new werift.MediaStreamTrack({ kind: 'audio' });
    transceiver.sender.replaceTrack(outgoing);
    // Both ways: the caller's microphone in, the service's voice out.
    transceiver.setDirection('sendrecv');
    await peer.setLocalDescription(await peer.createAnswer());
    await new Promise<void>((resolve) => {
      if (peer.iceGatheringState === 'complete') resolve();
      else peer.iceGatheringStateChange.subscribe((state) => state === 'complete' && resolve());
    });
    const answerSdp = peer.localDescription?.sdp;
    if (!answerSdp) throw new Error('No SDP answer was made.');
    const downsample = new Resampler(24000, 8000);
    let sequenceNumber = Math.floor(Math.random() * 0xffff);
    let timestamp = Math.floor(Math.random() * 0xffffffff);
    const sink: PlayoutSink = (pcm24) => {
      const samples = downsample.push(toSamples(PCM24, pcm24));
      const payload = fromSamples(
        PCMU,
        Int16Array.from(samples, (s) => Math.max(-32768, Math.min(32767, Math.round(s)))),
      );
      sequenceNumber = (sequenceNumber + 1) & 0xffff;
      const header = new werift.RtpHeader({ payloadType: PCMU_PAYLOAD_TYPE, sequenceNumber, timestamp });
      timestamp = (timestamp + payload.length) >>> 0;
      outgoing.writeRtp(new werift.RtpPacket(header, Buffer.from(payload)));
    };
    return {
      answerSdp,
      sink,
      events: eventsReady,
      onAudio: (listener) => {
        audioListeners.push(listener);
      },
      close: () => peer.close().catch(() => {}),
    };
  } catch (error) {
    closePeer();
    throw error;
  }
}
