import { useState } from 'react';
import { useMutation, type UseQueryResult } from '@tanstack/react-query';
import { ApiRequestError, describeError } from '../api/api-error';
import { createDaemonEnrollment, enrollmentCommand, revokeDaemon, runtimeKeys, type Daemon, type DaemonEnrollment } from '../api/runtimes.api';
import { useConfirmedAction } from './confirmed-action.hook';
import { ConfirmDialog, CopyField, SecretDialog } from './dialog.view';
import { Pager, useClientPages } from './pager.view';

const PAGE_SIZE = 20;

/** The daemons enrolled in the workspace (revoked ones too); admins enroll new ones and revoke. */
export function DaemonList(props: { readonly daemons: UseQueryResult<Daemon[]>; readonly canManage: boolean }) {
  const { daemons, canManage } = props;
  const { pageItems, pager } = useClientPages(daemons.data ?? [], PAGE_SIZE, 'Daemons pages');
  const [enrollment, setEnrollment] = useState<DaemonEnrollment>();
  const enroll = useMutation({ mutationFn: createDaemonEnrollment, onSuccess: setEnrollment });
  const revoke = useConfirmedAction({ act: (daemon: Daemon) => revokeDaemon(daemon.id), refreshes: [runtimeKeys.daemons, runtimeKeys.all] });
  // Members read daemons, viewers may not: say so instead of showing the refusal as a failure.
  const forbidden = daemons.error instanceof ApiRequestError && daemons.error.status === 403;
  return (
    <section className="card" aria-labelledby="daemons-title">
      <div className="section-header">
        <h2 id="daemons-title">Daemons</h2>
        {canManage ? (
          <button type="button" className="primary" onClick={() => enroll.mutate()} disabled={enroll.isPending} data-testid="daemon-enroll">
            {enroll.isPending ? 'Creating a token…' : 'Enroll a daemon'}
          </button>
        ) : null}
      </div>
      {enroll.isError ? <p role="alert">{describeError(enroll.error)}</p> : null}
      {daemons.isPending ? <p role="status">Loading daemons…</p> : null}
      {forbidden ? <p className="hint">Members and above see the daemons.</p> : daemons.isError ? <p role="alert">{describeError(daemons.error)}</p> : null}
      {daemons.data?.length === 0 ? <p className="hint">No daemon enrolled yet.</p> : null}
      {pageItems.length > 0 ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Daemons table">
          <table className="data-table stacked-on-narrow">
            <thead>
              <tr>
                <th scope="col">Daemon</th>
                <th scope="col">Enrolled</th>
                <th scope="col">State</th>
                {canManage ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {pageItems.map((daemon) => (
                <tr key={daemon.id} data-testid="daemon-row" data-daemon-id={daemon.id}>
                  <th scope="row">
                    {daemon.name}
                    <div className="hint monospace">{daemon.id}</div>
                  </th>
                  <td data-label="Enrolled">{new Date(daemon.enrolledAt).toLocaleString()}</td>
                  <td data-label="State">{daemon.revokedAt ? `revoked ${new Date(daemon.revokedAt).toLocaleString()}` : 'active'}</td>
                  {canManage ? (
                    <td data-label="Actions">
                      {daemon.revokedAt ? null : (
                        <button type="button" className="danger" onClick={() => revoke.ask(daemon)} data-testid="daemon-revoke">
                          Revoke
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager {...pager} />
      {enrollment ? (
        <SecretDialog title="Enroll a daemon" secretLabel="One-time enrollment token" secret={enrollment.token} onClose={() => setEnrollment(undefined)}>
          <p>
            On the daemon's machine, in a Switchyard checkout, run this before {new Date(enrollment.expiresAt).toLocaleString()}. The token works once.
          </p>
          <CopyField label="Command" value={enrollmentCommand(enrollment.token)} testId="daemon-enroll-command" multiline />
        </SecretDialog>
      ) : null}
      {revoke.target ? (
        <ConfirmDialog title={`Revoke ${revoke.target.name}?`} confirmLabel="Revoke" busyLabel="Revoking…" {...revoke.dialog}>
          <p>It is disconnected at once and refused from now on; its runtimes go offline. It needs a new enrollment to come back.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
