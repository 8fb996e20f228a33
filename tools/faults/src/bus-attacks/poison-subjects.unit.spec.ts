import { COMMAND_CATALOG, EVENT_TYPES, SESSION_COMMAND_CATALOG } from '@switchyard/contracts';
import { TEST_TOOLING } from '@switchyard/testing';
import { mayPublish, poisonTargets, subjectMatches } from './poison-subjects';

const NAMESPACE = 'tpoison';
const targets = poisonTargets({ namespace: NAMESPACE, attackerDaemonId: 'daemon-b', victimDaemonId: 'daemon-a', tooling: TEST_TOOLING });
const target = (subject: string) => targets.find((candidate) => candidate.subject === subject);

describe('poison targets: every subject a service or the daemon subscribes to', () => {
  it('matches NATS filters token by token', () => {
    expect(subjectMatches('task.>', 'task.message.t1.d1')).toBe(true);
    expect(subjectMatches('task.>', 'task')).toBe(false);
    expect(subjectMatches('runtime.*.>', 'runtime.heartbeat.poison')).toBe(true);
    expect(subjectMatches('cmd.task.*', 'cmd.task.claim.d1')).toBe(false);
    expect(subjectMatches('notify.workspace.*', 'notify.workspace.default')).toBe(true);
  });

  it('reads a grant as NATS does: a daemon publishes its own commands and events only', () => {
    const daemon = { kind: 'daemon', daemonId: 'daemon-b' } as const;
    expect(mayPublish(daemon, 'task.message.t1.daemon-b', NAMESPACE)).toBe(true);
    expect(mayPublish(daemon, 'task.message.t1.daemon-a', NAMESPACE)).toBe(false);
    expect(mayPublish(daemon, 'task.completed.t1.daemon-b', NAMESPACE)).toBe(false);
    expect(mayPublish({ kind: 'service', name: 'gateway' }, 'cmd.task.enqueue', NAMESPACE)).toBe(true);
  });

  it('covers every command of both catalogs, each from the identity that may send it', () => {
    for (const [name, entry] of Object.entries({ ...COMMAND_CATALOG, ...SESSION_COMMAND_CATALOG })) {
      const subject = entry.sentBy === 'daemon' ? `cmd.${name}.daemon-b` : `cmd.${name}`;
      expect({ subject, found: target(subject) }).toMatchObject({
        subject,
        found: { isCommand: true, publisher: entry.sentBy === 'daemon' ? { kind: 'daemon', daemonId: 'daemon-b' } : { kind: 'service', name: 'gateway' } },
      });
    }
  });

  it('covers every event type in both subject shapes, from the attacker daemon where its grant allows', () => {
    const daemonPublished = ['task.message', 'runtime.registered', 'runtime.heartbeat', 'runtime.offline', 'session.pinned', 'session.retired'];
    for (const type of EVENT_TYPES) {
      const publisherToken = daemonPublished.includes(type) ? 'daemon-b' : 'queue';
      expect(target(`${type}.poison-aggregate.${publisherToken}`)).toBeDefined();
      expect(target(`${type}.poison`)).toBeDefined();
      if (daemonPublished.includes(type)) expect(target(`${type}.poison-aggregate.daemon-b`)?.publisher).toEqual({ kind: 'daemon', daemonId: 'daemon-b' });
    }
  });

  it('names the durable consumers that must dead-letter each stream subject', () => {
    expect(target('task.message.poison-aggregate.daemon-b')?.consumers).toEqual(['transcript-timeline']);
    expect(target('task.completed.poison')?.consumers).toEqual(['gateway-chat-reply', 'gateway-child-done', 'session-resume-task_completed']);
    expect(target('runtime.heartbeat.poison-aggregate.daemon-b')?.consumers).toEqual(['gateway-runtime-view', 'queue-runtime-presence']);
    expect(target('session.pinned.poison-aggregate.daemon-b')?.consumers).toEqual(['session-resume-session_pinned']);
    expect(target('task.claimed.poison-aggregate.queue')).toMatchObject({ consumers: [], coreListener: 'gateway', stream: 'TASK_EVENTS' });
  });

  it('covers the gateway’s workspace notices and the victim daemon’s notices, from the services allowed there', () => {
    expect(target('notify.workspace.default')?.publisher).toEqual({ kind: 'service', name: 'gateway' });
    expect(target('notify.daemon-a.cancel.poison-task')).toMatchObject({ publisher: { kind: 'service', name: 'queue' }, coreListener: 'daemon' });
  });
});
