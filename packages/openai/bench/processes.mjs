// The benchmarks' process plumbing: the replay server and the client runs, each in its own process. Only the
// orchestration lives here; what a client measures stays in its own script.
import { fork } from 'node:child_process';

const here = (file) => new URL(file, import.meta.url).pathname;

/**
 * Forks the replay server with `env` over this process's environment and waits until it listens. Resolves with the
 * server process, what it reported (`port` and its mode's figures) and the Realtime URL to give the clients.
 */
export async function startReplayServer(env = {}) {
  const server = fork(here('./replay-server.mjs'), [], { env: { ...process.env, ...env } });
  const info = await new Promise((resolve, reject) => {
    server.once('message', resolve);
    server.once('exit', (code) => reject(new Error(`The replay server exited (${code}) before listening.`)));
  });
  return { server, info, url: `ws://127.0.0.1:${info.port}/v1/realtime?model=gpt-realtime` };
}

/**
 * Runs one client script in a fresh process and resolves with the last message it sent, once it exits with 0. It
 * is killed after `timeoutMs`; a failure rejects with `label`. `onMessage(message, child)` sees every message
 * first and returns `true` for one it handled (a control message, not the result).
 */
export function runClientProcess(script, args, { label, timeoutMs, execArgv, env, onMessage }) {
  return new Promise((resolve, reject) => {
    const child = fork(here(script), args, {
      ...(execArgv && { execArgv }),
      ...(env && { env: { ...process.env, ...env } }),
    });
    let result;
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('message', (message) => {
      if (!onMessage?.(message, child)) result = message;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (result && code === 0) resolve(result);
      else reject(new Error(`${label} failed (exit ${code ?? signal}).`));
    });
  });
}
