/** Small agents and tools shared by the Runner tests. */
import { tool } from '@parley/core';
import { z } from 'zod';

/** Adds two numbers; records every call it ran. */
export function adder() {
  const calls: { a: number; b: number }[] = [];
  const add = tool({
    name: 'add',
    description: 'Adds two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => {
      calls.push({ a, b });
      return a + b;
    },
  });
  return { add, calls };
}

/** Looks up an order; records every call it ran. */
export function orderLookup() {
  const calls: string[] = [];
  const lookup = tool({
    name: 'lookup_order',
    description: 'Looks up an order by id',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      calls.push(orderId);
      return { orderId, status: 'shipped' };
    },
  });
  return { lookup, calls };
}
