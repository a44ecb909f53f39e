import type { ConversationItem, Model, ModelRequest } from '@parley/core';
import { MockModel, type MockResponse } from '@parley/mock';
import { ORDERS } from '../demo/support-agents.js';

const ORDER_ID = /\b([A-Z]\d{3,})\b/i;

function lastUserText(input: readonly ConversationItem[]): string {
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i];
    if (item?.type === 'message' && item.role === 'user') return item.content;
  }
  return '';
}

/**
 * What the offline chat model "decides" from the conversation: looks orders up, refunds them (a call that needs
 * approval), reports tool results, and otherwise says what it can do.
 */
export function chatResponse(request: ModelRequest): MockResponse {
  const last = request.input.at(-1);
  if (last?.type === 'function_call_output') {
    const call = request.input.find((i) => i.type === 'function_call' && i.callId === last.callId);
    const result = parse(last.output);
    if (call?.type === 'function_call' && call.name === 'issue_refund') {
      const { orderId } = parse(call.arguments) ?? {};
      return typeof result?.refundId === 'string'
        ? MockModel.text(
            `Done: refund ${result.refundId} of ${dollars(result.amount)} for order ${orderId} is on its way.`,
          )
        : MockModel.text(`OK, I did not refund order ${orderId}.`);
    }
    if (typeof result?.item === 'string')
      return MockModel.text(
        `Order ${result.orderId} (${result.item}, ${dollars(result.amount)}) was charged ${result.charges} times.`,
      );
    return MockModel.text(`The tool said: ${last.output}`);
  }
  const said = lastUserText(request.input);
  const orderId = ORDER_ID.exec(said)?.[1]?.toUpperCase();
  if (orderId && /refund|money back/i.test(said))
    return MockModel.toolCall('issue_refund', { orderId, amount: ORDERS[orderId]?.amount ?? 1 });
  if (orderId) return MockModel.toolCall('lookup_order', { orderId });
  return MockModel.text(
    `I am the offline mock model: I look orders up and refund them. Try "what about order A1001?" or "refund order A1001".`,
  );
}

function dollars(amount: unknown): string {
  return `$${Number(amount).toFixed(2)}`;
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The offline model of `parley chat`: a {@link MockModel} that answers every call with {@link chatResponse}. */
export class ChatMockModel implements Model {
  readonly #mock = new MockModel([], { recordRequests: false });
  readonly specificationVersion = this.#mock.specificationVersion;
  readonly provider = this.#mock.provider;
  readonly capabilities = this.#mock.capabilities;

  getResponse(request: ModelRequest, options: { signal?: AbortSignal }) {
    this.#mock.enqueue(chatResponse);
    return this.#mock.getResponse(request, options);
  }

  streamResponse(request: ModelRequest, options: { signal?: AbortSignal }) {
    this.#mock.enqueue(chatResponse);
    return this.#mock.streamResponse(request, options);
  }
}
