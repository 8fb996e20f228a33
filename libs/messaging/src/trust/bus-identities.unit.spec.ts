import { SERVICE_IDENTITIES, permissionsOf, type BusIdentity } from './bus-identities';
import { InvalidDefinitionError } from '../errors/messaging.errors';

const NAMESPACE = 'ns1';
const publishes = (identity: BusIdentity): string[] => [...(permissionsOf(identity, NAMESPACE).pub?.allow ?? [])];
const objectStoreSubjects = (identity: BusIdentity): string[] => publishes(identity).filter((subject) => subject.includes('OBJ_') || subject.startsWith('$O.'));

describe('object store grants per identity', () => {
  it('grants a daemon reads of its own workspace’s skills bucket only, and no object publish', () => {
    expect(objectStoreSubjects({ kind: 'daemon', daemonId: 'd1', workspaceId: 'ws-alpha' })).toEqual([
      '$JS.API.STREAM.MSG.GET.OBJ_ns1_skills-ws-alpha',
      '$JS.API.CONSUMER.CREATE.OBJ_ns1_skills-ws-alpha.*.$O.ns1_skills-ws-alpha.C.*',
      '$JS.API.CONSUMER.DELETE.OBJ_ns1_skills-ws-alpha.*',
      '$JS.FC.OBJ_ns1_skills-ws-alpha.>',
    ]);
  });

  it('grants a daemon whose identity names no workspace no object store at all', () => {
    expect(objectStoreSubjects({ kind: 'daemon', daemonId: 'd1' })).toEqual([]);
  });

  it('refuses to grant a workspace id that is not a plain subject token', () => {
    for (const workspaceId of ['ws.beta', '*', '>', 'ws beta', '']) {
      expect(() => permissionsOf({ kind: 'daemon', daemonId: 'd1', workspaceId }, NAMESPACE)).toThrow(InvalidDefinitionError);
    }
  });

  it('lets the gateway write every bucket, one per workspace, and no other service any', () => {
    expect(publishes({ kind: 'service', name: 'gateway' })).toContain('$O.*.>');
    for (const name of SERVICE_IDENTITIES.filter((service) => service !== 'gateway')) {
      expect(publishes({ kind: 'service', name }).filter((subject) => subject.startsWith('$O.'))).toEqual([]);
    }
  });
});
