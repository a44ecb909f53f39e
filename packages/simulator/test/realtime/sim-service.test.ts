import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { startRealtimeSimulator } from '@parley/simulator';
import { describe, expect, test } from 'vitest';
import { simulator } from './helpers.js';
import { RawClient } from './raw-client.js';

/** A masked client text frame (RFC 6455 §5.2). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x81, 0x80 | length])
      : Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff]);
  const masked = Buffer.alloc(length);
  for (let i = 0; i < length; i++) masked[i] = (payload[i] as number) ^ (mask[i % 4] as number);
  return Buffer.concat([header, mask, masked]);
}

/** A client that completes the WebSocket handshake, then never reads another byte. */
async function clientThatNeverReads(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    'GET /v1/realtime?model=gpt-realtime HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n' +
      `Connection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n` +
      'Sec-WebSocket-Version: 13\r\nAuthorization: Bearer sk-test\r\n\r\n',
  );
  await new Promise<void>((resolve) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause();
      resolve();
    };
    socket.on('data', onData);
  });
  socket.on('error', () => {});
  return socket;
}

describe('the simulator as a long-running service', () => {
  test('keepEndedConnections: ended connections beyond the window are forgotten, with their client events', async () => {
    const sim = await simulator({ keepEndedConnections: 2 });
    const open = await RawClient.connect(sim);
    for (let i = 0; i < 4; i++) {
      const client = await RawClient.connect(sim);
      client.send({ type: 'input_audio_buffer.clear', event_id: `clear_${i}` });
      await client.waitFor('input_audio_buffer.cleared');
      client.ws.close();
      const connection = await sim.waitForConnection(i + 1);
      await connection.closed;
    }
    // The open one, and the two most recent ended ones.
    expect(sim.connections.map((c) => c.id)).toEqual(['conn_1', 'conn_4', 'conn_5']);
    expect(sim.clientEvents.map((r) => r.connectionId)).toEqual(['conn_4', 'conn_5']);
    expect(sim.upgrades.length).toBeLessThanOrEqual(4);
    await expect(sim.waitForConnection(1)).rejects.toThrow('was forgotten');
    expect((await sim.waitForConnection(4)).id).toBe('conn_5');
    open.ws.close();
  });

  test('a client that never reads: past maxBufferedBytes the simulator stops generating and drops it with 1008', async () => {
    const limit = 256 * 1024;
    const sim = await simulator({ maxBufferedBytes: limit });
    const socket = await clientThatNeverReads(sim.port);
    const connection = await sim.waitForConnection(0);
    // 2,000 words, 500 s of speech (about 32 MB of events): far more than the socket buffers and the limit hold.
    sim.script({ type: 'message', text: 'word '.repeat(2000) });
    socket.write(clientFrame(JSON.stringify({ type: 'response.create' })));
    const closed = await connection.closed;
    expect(closed).toEqual({
      code: 1008,
      reason: `The client did not read its events: over ${limit} bytes waited to be sent.`,
    });
    expect(connection.isOpen).toBe(false);
    expect(connection.activeResponses).toEqual([]);
    // Generation stopped: far fewer audio deltas than 500 s hold (5000), and none after the drop.
    const deltas = () =>
      connection.serverEvents.filter((e) => e.type === 'response.output_audio.delta').length;
    const atDrop = deltas();
    expect(atDrop).toBeLessThan(5000);
    expect(connection.serverEvents.some((e) => e.type === 'response.done')).toBe(false);
    await sim.waitForIdle();
    expect(deltas()).toBe(atDrop);
    socket.destroy();
  });

  test('invalid keepEndedConnections and maxBufferedBytes are refused before it listens', async () => {
    await expect(startRealtimeSimulator({ keepEndedConnections: -1 })).rejects.toThrow(
      'keepEndedConnections must be an integer of at least 0; got -1.',
    );
    await expect(startRealtimeSimulator({ maxBufferedBytes: 0 })).rejects.toThrow(TypeError);
    await expect(startRealtimeSimulator({ maxBufferedBytes: '1mb' as never })).rejects.toThrow(TypeError);
  });
});
