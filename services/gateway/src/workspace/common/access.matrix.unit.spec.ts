import { readFileSync } from 'node:fs';
import path from 'node:path';
import { roleMatrixMarkdown } from './access-matrix.markdown';
import { PERMISSION_NAMES, permissionsOf, roleAtLeast, roleBelow, roleGrants } from './access.matrix';

describe('the role matrix', () => {
  it('is the table docs/architecture/people.md shows, word for word', () => {
    const docs = readFileSync(path.join(__dirname, '../../../../../docs/architecture/people.md'), 'utf8');
    expect(docs).toContain(roleMatrixMarkdown());
  });

  it('orders the roles: each holds all the one below holds, and more', () => {
    expect([roleBelow('owner'), roleBelow('admin'), roleBelow('member'), roleBelow('viewer')]).toEqual(['admin', 'member', 'viewer', undefined]);
    for (const role of ['member', 'admin', 'owner'] as const) {
      const below = roleBelow(role)!;
      expect(permissionsOf(role)).toEqual(expect.arrayContaining(permissionsOf(below)));
      expect(roleAtLeast(role, below)).toBe(true);
      expect(roleAtLeast(below, role)).toBe(false);
    }
    expect(permissionsOf('owner')).toEqual(PERMISSION_NAMES);
  });

  it('keeps the issue’s rules: a viewer reads and writes nothing; a member works (issues, comments, chat, tasks) but reads no secret; secrets, members, agents, daemons, profiles and autopilots are an admin’s', () => {
    const viewer = permissionsOf('viewer');
    expect(viewer.filter((permission) => !permission.endsWith(':read') && permission !== 'tokens:manage')).toEqual([]);
    for (const permission of ['issues:write', 'comments:write', 'chat:write', 'tasks:run', 'tasks:cancel', 'autopilots:run'] as const) expect(roleGrants('member', permission)).toBe(true);
    expect(roleGrants('member', 'secrets:read')).toBe(false);
    for (const permission of ['members:manage', 'agents:manage', 'secrets:manage', 'daemons:manage', 'runtime_profiles:manage', 'autopilots:manage', 'audit:read'] as const) {
      expect([roleGrants('member', permission), roleGrants('admin', permission)]).toEqual([false, true]);
    }
  });
});
