import { useRoleAtLeast, useSession } from '../session/session.context';
import { MemberInvitations } from '../components/member-invitations.view';
import { MemberList } from '../components/member-list.view';
import { MemberTokens } from '../components/member-tokens.view';

/** Members and roles, invitations (admins), and the person's own API tokens. */
export function MembersPage() {
  const { session, workspace } = useSession();
  const canManage = useRoleAtLeast('admin');
  return (
    <div className="stack">
      <header className="page-header">
        <h1>Members</h1>
        <p className="hint">
          {workspace.workspaceName}: you are {workspace.role === 'admin' || workspace.role === 'owner' ? 'an' : 'a'} {workspace.role}.
        </p>
      </header>
      <MemberList canManage={canManage} myUserId={session.user.id} />
      {canManage ? <MemberInvitations /> : null}
      <MemberTokens role={workspace.role} />
    </div>
  );
}
