import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A database server a test started on a loopback port in a temporary directory. */
export interface TestServer {
  /** Where to connect, e.g. `postgres://parley@127.0.0.1:54123/postgres`. */
  readonly url: string;
  /** Stops the server and removes its directory. Idempotent. */
  stop(): Promise<void>;
}

/** A server could not start; `reason` says why in words a test can print when it skips. */
export class ServerUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ServerUnavailableError';
  }
}

const START_TIMEOUT_MS = 30_000;

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The directory of the newest PostgreSQL under /usr/lib/postgresql (Debian), or `PARLEY_PG_BIN`. */
function postgresBin(): string | undefined {
  const fromEnv = process.env.PARLEY_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user (or `nobody`). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { uid, gid };
    } catch {
      // try the next one
    }
  }
  throw new ServerUnavailableError(
    'running as root and there is no "postgres" or "nobody" user to run PostgreSQL as',
  );
}

/** Resolves when `child` prints `ready` (on stdout or stderr); rejects when it exits first or takes too long. */
function waitUntilReady(child: ChildProcess, ready: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => finish(new Error(`${what} did not start within ${START_TIMEOUT_MS} ms:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) finish();
    };
    const onExit = (code: number | null) =>
      finish(new Error(`${what} exited (${code}) before it was ready:\n${output}`));
    function finish(error?: Error) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Stops `child` with SIGTERM, then SIGKILL if it lingers; bounded. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A server started by `start` in a new temporary directory (named from `prefix`): `start` hands the process it spawns
 * to `own` and returns the URL once the server is ready. Stopping ends the process and removes the directory, once; a
 * failure halfway does both before it is thrown.
 */
async function serverInTempDir(
  prefix: string,
  start: (dir: string, own: (child: ChildProcess) => ChildProcess) => Promise<string>,
): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const owned: { child?: ChildProcess } = {};
  const release = async () => {
    if (owned.child) await stopProcess(owned.child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const url = await start(dir, (child) => {
      owned.child = child;
      return child;
    });
    let stopped: Promise<void> | undefined;
    return {
      url,
      stop: () => {
        stopped ??= release();
        return stopped;
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * Starts a PostgreSQL server (`initdb` + `postgres`, Debian's binaries) on a free loopback port in a new
 * temporary directory, with trust authentication for user `parley`. Throws {@link ServerUnavailableError}
 * when PostgreSQL is not installed.
 */
export async function startPostgresServer(): Promise<TestServer> {
  const bin = postgresBin();
  if (!bin) {
    throw new ServerUnavailableError(
      'PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/initdb; apt-get install postgresql, or set PARLEY_PG_BIN)',
    );
  }
  const user = serverUser();
  const owned = user ? { uid: user.uid, gid: user.gid } : {};
  return serverInTempDir('parley-pg-', async (dir, own) => {
    const data = join(dir, 'data');
    if (user) {
      await chown(dir, user.uid, user.gid);
      await chmod(dir, 0o700);
    }
    execFileSync(
      join(bin, 'initdb'),
      [
        '-D',
        data,
        '-U',
        'parley',
        '--auth=trust',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
        '--no-instructions',
      ],
      { ...owned, stdio: 'pipe', cwd: dir },
    );
    const port = await freePort();
    const child = own(
      spawn(
        join(bin, 'postgres'),
        [
          '-D',
          data,
          '-p',
          String(port),
          '-k',
          dir,
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          'fsync=off',
          '-c',
          'full_page_writes=off',
        ],
        { ...owned, stdio: ['ignore', 'pipe', 'pipe'], cwd: dir },
      ),
    );
    await waitUntilReady(child, /ready to accept connections/, 'postgres');
    return `postgres://parley@127.0.0.1:${port}/postgres`;
  });
}

/** Starts `redis-server` on a free loopback port in a new temporary directory, without persistence. */
export async function startRedisServer(): Promise<TestServer> {
  const binary =
    process.env.PARLEY_REDIS_SERVER ??
    ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find(existsSync);
  if (!binary || !existsSync(binary)) {
    throw new ServerUnavailableError(
      'redis-server is not installed (apt-get install redis-server, or set PARLEY_REDIS_SERVER)',
    );
  }
  return serverInTempDir('parley-redis-', async (dir, own) => {
    const port = await freePort();
    const child = own(
      spawn(
        binary,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dir,
          '--daemonize',
          'no',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir },
      ),
    );
    await waitUntilReady(child, /Ready to accept connections/, 'redis-server');
    return `redis://127.0.0.1:${port}`;
  });
}
