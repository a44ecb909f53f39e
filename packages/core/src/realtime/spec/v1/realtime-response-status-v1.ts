/** How a response ended. */
export type RealtimeResponseStatusV1 = 'completed' | 'cancelled' | 'incomplete' | 'failed';
