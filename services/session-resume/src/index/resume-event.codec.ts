import { parseEvent, type EventOf, type EventType } from '@switchyard/contracts';
import { DecodeError, jsonCodec, type MessageCodec } from '@switchyard/messaging';

/** Decodes a contract event of the given types; anything else is a DecodeError, so it is dead-lettered. */
export function eventCodec<TType extends EventType>(types: readonly TType[]): MessageCodec<EventOf<TType>> {
  const json = jsonCodec<unknown>();
  return {
    encode: (event) => json.encode(event),
    decode: (data) => {
      const parsed = parseEvent(json.decode(data));
      if (!parsed.ok) throw new DecodeError(`not a valid event: ${parsed.error.message}`, parsed.error);
      if (!(types as readonly EventType[]).includes(parsed.event.type)) throw new DecodeError(`${parsed.event.type} is not indexed here`);
      return parsed.event as EventOf<TType>;
    },
  };
}
