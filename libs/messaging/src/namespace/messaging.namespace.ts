import { InvalidDefinitionError } from '../errors/messaging.errors';

/**
 * Maps logical names (`task.message.x`, `TASKS`, `projector`) to the names used on the server and
 * back. The only place a namespace is applied, so tests and deployments can share one NATS server.
 */
export interface MessagingNamespace {
  /** The namespace token, or `undefined` when names are used as they are. */
  readonly value: string | undefined;
  /** `task.message.x` -> `<ns>.task.message.x` (wildcards included). */
  subject(logicalSubject: string): string;
  /** `<ns>.task.message.x` -> `task.message.x`; subjects outside the namespace come back unchanged. */
  logicalSubject(serverSubject: string): string;
  /** `TASKS` -> `<ns>_TASKS`. */
  stream(logicalName: string): string;
  /** `<ns>_TASKS` -> `TASKS`. */
  logicalStream(serverName: string): string;
  /** `projector` -> `<ns>_projector`. */
  consumer(logicalName: string): string;
  /** `<ns>_projector` -> `projector`. */
  logicalConsumer(serverName: string): string;
}

const namespacePattern = /^[A-Za-z0-9_-]{1,32}$/;
// Stream and consumer names become subject segments in the JetStream API.
const namePattern = /^[A-Za-z0-9_-]+$/;

export function createNamespace(namespace?: string): MessagingNamespace {
  const value = namespace === undefined || namespace === '' ? undefined : namespace;
  if (value !== undefined && !namespacePattern.test(value)) {
    throw new InvalidDefinitionError(`namespace "${value}" must be 1-32 characters of A-Z a-z 0-9 _ -`);
  }
  const subjectPrefix = value === undefined ? '' : `${value}.`;
  const namePrefix = value === undefined ? '' : `${value}_`;

  const checkSubject = (subject: string): string => {
    if (subject === '' || subject.startsWith('.') || subject.endsWith('.') || subject.includes('..') || /\s/.test(subject)) {
      throw new InvalidDefinitionError(`subject "${subject}" is not a valid NATS subject`);
    }
    return subject;
  };
  const checkName = (kind: string, name: string): string => {
    if (!namePattern.test(name)) {
      throw new InvalidDefinitionError(`${kind} name "${name}" must be characters of A-Z a-z 0-9 _ -`);
    }
    return name;
  };
  const strip = (prefix: string, name: string): string =>
    prefix !== '' && name.startsWith(prefix) ? name.slice(prefix.length) : name;

  return {
    value,
    subject: (logicalSubject) => subjectPrefix + checkSubject(logicalSubject),
    logicalSubject: (serverSubject) => strip(subjectPrefix, serverSubject),
    stream: (logicalName) => namePrefix + checkName('stream', logicalName),
    logicalStream: (serverName) => strip(namePrefix, serverName),
    consumer: (logicalName) => namePrefix + checkName('consumer', logicalName),
    logicalConsumer: (serverName) => strip(namePrefix, serverName),
  };
}
