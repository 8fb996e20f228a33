/** NATS header names every Switchyard message may carry. */
export const HEADERS = {
  /** JetStream de-duplication key; deterministic per logical event (e.g. `<taskId>:<seq>`). */
  messageId: 'Nats-Msg-Id',
  /** W3C trace context (https://www.w3.org/TR/trace-context/). */
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  /** Envelope metadata mirrored into headers so routers need not parse bodies. */
  eventType: 'Switchyard-Event-Type',
  schemaVersion: 'Switchyard-Schema-Version',
  correlationId: 'Switchyard-Correlation-Id',
  causationId: 'Switchyard-Causation-Id',
  /** Request id of a command; repeating it must return the first outcome. */
  requestId: 'Switchyard-Request-Id',
  /** Set on dead-lettered copies. */
  deadLetterReason: 'Switchyard-Dead-Letter-Reason',
  deadLetterStream: 'Switchyard-Dead-Letter-Stream',
  deadLetterConsumer: 'Switchyard-Dead-Letter-Consumer',
  deadLetterSubject: 'Switchyard-Dead-Letter-Subject',
  deadLetterDeliveries: 'Switchyard-Dead-Letter-Deliveries',
} as const;

export type HeaderName = (typeof HEADERS)[keyof typeof HEADERS];
