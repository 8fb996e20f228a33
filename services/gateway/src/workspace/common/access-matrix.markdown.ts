import { PERMISSION_NAMES, PERMISSIONS, ROLES, roleGrants } from './access.matrix';

/** The role matrix as the markdown table docs/architecture/people.md shows (a test keeps them equal). */
export function roleMatrixMarkdown(): string {
  const header = `| permission | what it allows | ${ROLES.join(' | ')} |`;
  const rule = `| --- | --- | ${ROLES.map(() => ':---:').join(' | ')} |`;
  const rows = PERMISSION_NAMES.map((permission) => `| \`${permission}\` | ${PERMISSIONS[permission].what} | ${ROLES.map((role) => (roleGrants(role, permission) ? 'yes' : '')).join(' | ')} |`);
  return [header, rule, ...rows].join('\n');
}
