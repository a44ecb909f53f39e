import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { inOrder, runParley } from './run-parley.js';

describe('parley chat', () => {
  test('runs the Runner on piped stdin: streamed answers, tool calls and results, approvals answered y and n', async () => {
    const stdin = [
      'hello',
      'what about order A1001?',
      'please refund order A1001',
      'y',
      'refund order A1001',
      'no',
    ].join('\n');
    const { code, stdout, stderr } = await runParley(['chat'], { stdin: `${stdin}\n` });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.split('\n')[0]).toBe(
      'Parley chat: a text agent on the offline mock model (no API key, no network). /exit or end of input quits.',
    );
    const transcript = inOrder(stdout, [
      '  you        hello\n  Assistant  I am the offline mock model',
      '  you        what about order A1001?\n',
      '  Assistant  ⚙ lookup_order({"orderId":"A1001"})\n',
      '↳ lookup_order returned {"orderId":"A1001","item":"Noise-cancelling headphones","amount":42.5,"charges":2}\n',
      '  Assistant  Order A1001 (Noise-cancelling headphones, $42.50) was charged 2 times.\n',
      '  Assistant  ⏸ issue_refund({"orderId":"A1001","amount":42.5}) needs your approval. Approve? [y/n] y\n',
      '  you        ✔ approved issue_refund\n',
      '↳ issue_refund returned {"refundId":"R-7781","orderId":"A1001","amount":42.5,"status":"refunded"}\n',
      '  Assistant  Done: refund R-7781 of $42.50 for order A1001 is on its way.\n',
      'Approve? [y/n] no\n',
      '  you        ✘ rejected issue_refund\n',
      '  Assistant  OK, I did not refund order A1001.\n',
      'Bye.',
    ]);
    expect(transcript).toEqual({ missing: [], ordered: true });
    expect(stdout).not.toContain('you> ');
  });

  test('the end of input during an approval rejects the call and ends the chat', async () => {
    const { code, stdout } = await runParley(['chat'], { stdin: 'refund order A1001\n' });
    expect(code).toBe(0);
    expect(stdout).toContain('Approve? [y/n] (no answer)\n  you        ✘ rejected issue_refund');
    expect(stdout).toContain('OK, I did not refund order A1001.');
  });

  test('/exit ends the chat before the rest of the input', async () => {
    const { stdout } = await runParley(['chat'], { stdin: '/exit\nhello\n' });
    expect(stdout).not.toContain('you        hello');
    expect(stdout.trimEnd().endsWith('Bye.')).toBe(true);
  });

  test.each([
    ['openai', 'OPENAI_API_KEY', 'OPENAI_API_KEY'],
    [
      'azure',
      'AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY, AZURE_OPENAI_DEPLOYMENT',
      'AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY, AZURE_OPENAI_DEPLOYMENT',
    ],
  ])(
    '--provider %s without its environment names what is missing and exits 1',
    async (provider, needed, missing) => {
      const { code, stdout, stderr } = await runParley(['chat', '--provider', provider], { stdin: 'hi\n' });
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr).toBe(
        `parley: --provider ${provider} needs ${needed} in the environment; not set: ${missing}. ` +
          'Set them, or leave out --provider to run offline.\n',
      );
    },
  );

  test('a model that cannot be reached: the typed error, no key, the chat stops and exits 1', async () => {
    // A port nobody listens on: take a free one and close it.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const key = 'sk-test-unreachable-0123456789';
    const { code, stdout, stderr } = await runParley(['chat', '--provider', 'openai'], {
      stdin: 'hello\nare you there?\n',
      env: { OPENAI_API_KEY: key, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^parley chat: Could not reach the Responses API at http://127\\.0\\.0\\.1:${port}/v1/responses: .*\\n$`,
      ),
    );
    expect(stderr).not.toContain(key);
    expect(stdout).not.toContain('are you there?');
  }, 60_000);

  test('--provider azure names only the variables that are missing', async () => {
    const { stderr } = await runParley(['chat', '--provider', 'azure'], {
      env: { AZURE_OPENAI_ENDPOINT: 'https://x.openai.azure.com', AZURE_OPENAI_DEPLOYMENT: 'gpt-realtime' },
    });
    expect(stderr).toContain('; not set: AZURE_OPENAI_API_KEY.');
  });
});
