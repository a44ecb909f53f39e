import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * Serves the lab page (lab.ts bundled for the browser) on 127.0.0.1: a secure context, as `getUserMedia` needs;
 * at /denied with a Permissions-Policy that refuses the microphone.
 */
export async function startLabServer(): Promise<{ url: string; close(): Promise<void> }> {
  const bundle = await rolldown({
    input: join(here, 'lab.ts'),
    platform: 'browser',
    resolve: { conditionNames: ['@parley/source', 'browser', 'import', 'module', 'default'] },
    logLevel: 'silent',
  });
  const { output } = await bundle.generate({ format: 'esm', codeSplitting: false });
  await bundle.close();
  const script = output[0].code;
  const server = createServer((request, response) => {
    if (request.url === '/lab.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(script);
    } else {
      // /denied: the site's policy refuses the microphone, as a user's "Block" does (NotAllowedError).
      const denied = request.url === '/denied' ? { 'permissions-policy': 'microphone=()' } : {};
      response.writeHead(200, { 'content-type': 'text/html', ...denied });
      response.end('<!doctype html><title>lab</title><script type="module" src="/lab.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
