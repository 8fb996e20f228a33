import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../api/api.types';
import { describeError } from '../api/api-error';
import { ROLES, changeMemberRole, listMembers, memberKeys, removeMember, type Member } from '../api/members.api';
import { useConfirmedAction } from './confirmed-action.hook';
import { ConfirmDialog } from './dialog.view';
import { Pager, useClientPages } from './pager.view';

const PAGE_SIZE = 20;

/** The workspace's members and roles; admins change roles and remove (the API keeps the owner rules and says why it refuses). */
export function MemberList(props: { readonly canManage: boolean; readonly myUserId: string }) {
  const queries = useQueryClient();
  const members = useQuery({ queryKey: memberKeys.members, queryFn: listMembers });
  const { pageItems, pager } = useClientPages(members.data ?? [], PAGE_SIZE, 'Members pages');
  const changeRole = useMutation({
    mutationFn: (change: { readonly userId: string; readonly role: Role }) => changeMemberRole(change.userId, change.role),
    onSettled: () => queries.invalidateQueries({ queryKey: memberKeys.members }),
  });
  const remove = useConfirmedAction({ act: (member: Member) => removeMember(member.userId), refreshes: [memberKeys.members] });
  const roleShown = (member: Member): Role => (changeRole.isPending && changeRole.variables.userId === member.userId ? changeRole.variables.role : member.role);
  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {members.isPending ? <p role="status">Loading members…</p> : null}
      {members.isError ? <p role="alert">{describeError(members.error)}</p> : null}
      {changeRole.isError ? <p role="alert">Role not changed: {describeError(changeRole.error)}</p> : null}
      {changeRole.isPending ? <p role="status">Changing the role…</p> : null}
      {pageItems.length > 0 ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Members table">
          <table className="data-table stacked-on-narrow">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Member since</th>
                {props.canManage ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {pageItems.map((member) => (
                <tr key={member.userId} data-testid="member-row" data-user-id={member.userId} data-role={member.role}>
                  <th scope="row">
                    {member.displayName}
                    {member.userId === props.myUserId ? <span className="hint"> (you)</span> : null}
                  </th>
                  <td data-label="Email">{member.email}</td>
                  <td data-label="Role">
                    {props.canManage ? (
                      <select
                        value={roleShown(member)}
                        aria-label={`Role of ${member.displayName}`}
                        disabled={changeRole.isPending}
                        onChange={(event) => changeRole.mutate({ userId: member.userId, role: event.target.value as Role })}
                        data-testid="member-role"
                      >
                        {ROLES.map((role) => (
                          <option key={role} value={role}>
                            {role}
                          </option>
                        ))}
                      </select>
                    ) : (
                      member.role
                    )}
                  </td>
                  <td data-label="Member since">{new Date(member.memberSince).toLocaleDateString()}</td>
                  {props.canManage ? (
                    <td data-label="Actions">
                      <button type="button" className="danger" onClick={() => remove.ask(member)} data-testid="member-remove">
                        Remove
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager {...pager} />
      {remove.target ? (
        <ConfirmDialog title={`Remove ${remove.target.displayName}?`} confirmLabel="Remove" busyLabel="Removing…" {...remove.dialog}>
          <p>
            {remove.target.userId === props.myUserId ? 'This is you: you leave the workspace. ' : ''}
            Their API tokens of this workspace are revoked and their open connections closed.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
