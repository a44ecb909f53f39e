import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); the tests never download a browser. */
export const CHROMIUM_PATH = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or `undefined` when they can. Throws in CI (PARLEY_REQUIRE_SERVERS=1). */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const reason = `${CHROMIUM_PATH} is missing (apt-get install -y chromium)`;
  if (process.env.PARLEY_REQUIRE_SERVERS === '1') throw new Error(`Browser tests cannot run: ${reason}.`);
  console.warn(`[tests/browser] skipped: ${reason}`);
  return reason;
}

/**
 * A headless Chromium whose microphone plays `wav` once. Playwright gives every launch a fresh profile in a temporary
 * folder (its own `--user-data-dir`) and removes it on `close()`.
 */
export function launchChromium(wav: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // playwright-core adds --headless; the rest keep the browser off the network and its microphone fake.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}%noloop`,
      // WebRTC on loopback: the simulator's peer listens on 127.0.0.1 only, which Chromium leaves out of its ICE
      // candidates unless told, and it cannot resolve the mDNS names Chromium would hide local addresses behind.
      '--allow-loopback-in-peer-connection',
      '--disable-features=WebRtcHideLocalIpsWithMdns',
    ],
    timeout: 30_000,
  });
}
