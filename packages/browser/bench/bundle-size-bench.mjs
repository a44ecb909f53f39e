// What a browser voice app downloads. Not a test: run `pnpm bench` (it builds first).
//
// Parley: a RealtimeSession over OpenAI Realtime with @parley/browser's microphone and speaker (the built packages,
// as npm ships them). Baseline, bundled the same way in the same run: @openai/agents-realtime's RealtimeAgent and
// RealtimeSession (its default browser transport, WebRTC, plays audio through the peer connection). Both with their
// dependencies (zod included), bundled by rolldown for the browser, minified, then gzipped.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';

const here = dirname(fileURLToPath(import.meta.url));
const entries = join(here, '..', '.dev', 'bundle-size');

const apps = {
  parley: `
    export { connectBrowserVoice } from '@parley/browser';
    export { Agent, RealtimeSession, ReportedPlaybackTracker, tool } from '@parley/core';
    export { OpenAIRealtimeModel } from '@parley/openai';
  `,
  'agents-realtime': `
    export { RealtimeAgent, RealtimeSession, tool } from '@openai/agents-realtime';
  `,
};

async function measure(name, source) {
  const input = join(entries, `${name}.mjs`);
  await writeFile(input, source);
  const bundle = await rolldown({ input, platform: 'browser', logLevel: 'silent' });
  try {
    const { output } = await bundle.generate({ format: 'esm', minify: true, codeSplitting: false });
    const code = output.map((chunk) => (chunk.type === 'chunk' ? chunk.code : '')).join('');
    return { minified: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).byteLength };
  } finally {
    await bundle.close();
  }
}

await mkdir(entries, { recursive: true });
try {
  const parley = await measure('parley', apps.parley);
  const baseline = await measure('agents-realtime', apps['agents-realtime']);
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log('\nBrowser bundle (rolldown, minified; gzip level 9)');
  console.log(`  @parley/browser + core + openai   ${kib(parley.minified)} min, ${kib(parley.gzip)} gzip`);
  console.log(
    `  @openai/agents-realtime (baseline) ${kib(baseline.minified)} min, ${kib(baseline.gzip)} gzip`,
  );
  console.log(`  ratio (gzip)                       ${(parley.gzip / baseline.gzip).toFixed(2)}×`);
} finally {
  await rm(entries, { recursive: true, force: true });
}
