/** A content part of a realtime message item. */
export type RealtimeContentPartV1 =
  | { type: 'text'; text: string }
  | { type: 'audio'; transcript?: string; audio?: Uint8Array };
