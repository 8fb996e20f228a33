import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { INVITATION_ROLES, createInvitation, invitationState, listInvitations, memberKeys, revokeInvitation, type CreatedInvitation, type Invitation, type InvitationRole } from '../api/members.api';
import { useConfirmedAction } from './confirmed-action.hook';
import { ConfirmDialog, SecretDialog } from './dialog.view';
import { Pager, useClientPages } from './pager.view';

const PAGE_SIZE = 20;
const DEFAULT_EXPIRY_HOURS = 72;

/** Invitations (admins): a one-time link for a role, optionally for one email; listed and revocable until accepted. */
export function MemberInvitations() {
  const invitations = useQuery({ queryKey: memberKeys.invitations, queryFn: listInvitations });
  const { pageItems, pager } = useClientPages(invitations.data ?? [], PAGE_SIZE, 'Invitations pages');
  const [created, setCreated] = useState<CreatedInvitation>();
  const revoke = useConfirmedAction({ act: (invitation: Invitation) => revokeInvitation(invitation.id), refreshes: [memberKeys.invitations] });
  return (
    <section className="card" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      <InvitationForm onCreated={setCreated} />
      {invitations.isPending ? <p role="status">Loading invitations…</p> : null}
      {invitations.isError ? <p role="alert">{describeError(invitations.error)}</p> : null}
      {invitations.data?.length === 0 ? <p className="hint">No invitations yet.</p> : null}
      {pageItems.length > 0 ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Invitations table">
          <table className="data-table stacked-on-narrow">
            <thead>
              <tr>
                <th scope="col">For</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {pageItems.map((invitation) => {
                const state = invitationState(invitation);
                return (
                  <tr key={invitation.id} data-testid="invitation-row" data-state={state}>
                    <th scope="row">{invitation.email ?? 'anyone with the link'}</th>
                    <td data-label="Role">{invitation.role}</td>
                    <td data-label="State">{state}</td>
                    <td data-label="Expires">{new Date(invitation.expiresAt).toLocaleString()}</td>
                    <td data-label="Actions">
                      {state === 'pending' ? (
                        <button type="button" className="danger" onClick={() => revoke.ask(invitation)} data-testid="invitation-revoke">
                          Revoke
                        </button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager {...pager} />
      {created ? (
        <SecretDialog title="Invitation link" secretLabel="Link" secret={created.link} onClose={() => setCreated(undefined)}>
          <p>
            Send it to {created.email ?? 'the person you invite'}: it makes them a {created.role}, once, until {new Date(created.expiresAt).toLocaleString()}.
          </p>
        </SecretDialog>
      ) : null}
      {revoke.target ? (
        <ConfirmDialog title="Revoke this invitation?" confirmLabel="Revoke" busyLabel="Revoking…" {...revoke.dialog}>
          <p>The link stops working.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function InvitationForm(props: { readonly onCreated: (created: CreatedInvitation) => void }) {
  const queries = useQueryClient();
  const [role, setRole] = useState<InvitationRole>('member');
  const [email, setEmail] = useState('');
  const [expiresInHours, setExpiresInHours] = useState(String(DEFAULT_EXPIRY_HOURS));
  const invite = useMutation({
    mutationFn: () => createInvitation({ role, ...(email.trim() ? { email: email.trim() } : {}), expiresInHours: Number(expiresInHours) }),
    onSuccess: async (created) => {
      setEmail('');
      props.onCreated(created);
      await queries.invalidateQueries({ queryKey: memberKeys.invitations });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Invite someone">
      <label>
        Role
        <select value={role} onChange={(event) => setRole(event.target.value as InvitationRole)} data-testid="invitation-role">
          {INVITATION_ROLES.map((candidate) => (
            <option key={candidate} value={candidate}>
              {candidate}
            </option>
          ))}
        </select>
      </label>
      <label>
        Email (optional: only they may accept)
        <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="off" data-testid="invitation-email" />
      </label>
      <label>
        Valid for (hours)
        <input type="number" min={1} max={720} step={1} required value={expiresInHours} onChange={(event) => setExpiresInHours(event.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={invite.isPending} data-testid="invitation-create">
        {invite.isPending ? 'Inviting…' : 'Invite'}
      </button>
      {invite.isError ? <p role="alert">{describeError(invite.error)}</p> : null}
    </form>
  );
}
