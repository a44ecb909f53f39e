/**
 * What an appended context means to the model: a standing `instruction` (a rule from now on), a silent `thought`
 * (informs later speech, never said by itself) or `commentary` (something to say, in the model's own words).
 */
export type RealtimeContextAppendKindV1 = 'instruction' | 'thought' | 'commentary';
