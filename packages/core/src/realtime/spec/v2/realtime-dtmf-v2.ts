/**
 * A telephone keypad key (DTMF): `0`–`9`, `*`, `#`, and `A`–`D` (the fourth column some phones and networks carry).
 */
export type RealtimeDtmfDigitV2 =
  | '0'
  | '1'
  | '2'
  | '3'
  | '4'
  | '5'
  | '6'
  | '7'
  | '8'
  | '9'
  | '*'
  | '#'
  | 'A'
  | 'B'
  | 'C'
  | 'D';

/**
 * Presses a key on the phone call the provider carries (a SIP call it answered). A provider that carries no call
 * refuses it (with an `error` event, or by throwing before writing).
 */
export interface RealtimeSendDtmfCommandV2 {
  type: 'sendDtmf';
  digit: RealtimeDtmfDigitV2;
}

/** The caller pressed a key on the phone call the provider carries. */
export interface RealtimeDtmfReceivedEventV2 {
  type: 'dtmf_received';
  digit: RealtimeDtmfDigitV2;
}
