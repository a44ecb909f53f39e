import type { RealtimeCommand, RealtimeConnection, RealtimeEvent, RealtimeSessionConfig } from './seam.js';

/**
 * A connection that stands for another: each member of the seam's connection but its audio formats goes to
 * `inner` as it is. A subclass overrides what it changes (the session's audio-format bridge converts audio; the
 * conformance suite's recorder notes commands).
 */
export class ForwardingConnection implements RealtimeConnection {
  protected readonly inner: RealtimeConnection;

  constructor(inner: RealtimeConnection) {
    this.inner = inner;
  }

  get status(): 'open' | 'closed' {
    return this.inner.status;
  }

  get expiresAt(): number | undefined {
    return this.inner.expiresAt;
  }

  get confirmedConfig(): Readonly<RealtimeSessionConfig> | undefined {
    return this.inner.confirmedConfig;
  }

  get resumed(): boolean | undefined {
    return this.inner.resumed;
  }

  get servicePlayback(): boolean | undefined {
    return this.inner.servicePlayback;
  }

  send(command: RealtimeCommand): void {
    this.inner.send(command);
  }

  onEvent(listener: (event: RealtimeEvent) => void): () => void {
    return this.inner.onEvent(listener);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

type Expect<T extends true> = T;
// Every member of the seam's connection but its formats is forwarded: a member the seam gains fails here until it is.
type _EveryMemberForwarded = Expect<
  [Exclude<keyof RealtimeConnection, keyof ForwardingConnection | 'audioFormats'>] extends [never]
    ? true
    : false
>;
