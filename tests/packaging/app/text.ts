// A text agent with a zod tool and structured output, on the scripted model.
import { Agent, run, tool } from '@parley/core';
import { MockModel } from '@parley/mock';
import { z } from 'zod';

const getOrder = tool({
  name: 'get_order',
  description: 'Look up an order by id',
  parameters: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
});
const model = new MockModel([
  MockModel.toolCall('get_order', { orderId: 'A1' }),
  MockModel.json({ orderId: 'A1', status: 'shipped' }),
]);
const agent = new Agent({
  name: 'Support',
  instructions: 'Answer order questions.',
  model,
  tools: [getOrder],
  outputType: z.object({ orderId: z.string(), status: z.enum(['pending', 'shipped']) }),
});
const result = await run(agent, 'Where is order A1?');
const status: 'pending' | 'shipped' | undefined = result.finalOutput?.status;
const toolOutput = model.requests[1]?.input.at(-1);
console.log(
  JSON.stringify({ status, toolOutput: toolOutput?.type === 'function_call_output' && toolOutput.output }),
);
