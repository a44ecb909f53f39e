/** Which tools the model may call: any (`auto`), none, at least one (`required`), or the one named. */
export type RealtimeToolChoiceV1 = 'auto' | 'none' | 'required' | { type: 'function'; name: string };
