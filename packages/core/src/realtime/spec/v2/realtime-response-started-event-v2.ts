/** A response began. */
export interface RealtimeResponseStartedEventV2 {
  type: 'response_started';
  responseId: string;
  /** The `clientRequestId` of the request that created it; absent for provider-initiated responses. */
  clientRequestId?: string;
  /** `true`: generated outside the conversation (a `createResponse` with `ephemeral: true`). */
  ephemeral: boolean;
}
