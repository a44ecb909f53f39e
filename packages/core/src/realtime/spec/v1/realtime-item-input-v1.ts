import type { RealtimeItemV1 } from './realtime-item-v1.js';

/** An item to create; the provider assigns `itemId` when it is left out. */
export type RealtimeItemInputV1 = RealtimeItemV1 extends infer T
  ? T extends { itemId: string }
    ? Omit<T, 'itemId'> & { itemId?: string }
    : never
  : never;
