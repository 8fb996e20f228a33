import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { AUTOPILOT_SECRET_HEADER, autopilotKeys, deleteAutopilot, rotateWebhookSecret, updateAutopilot, webhookCurl, webhookUrl, type Autopilot, type CreatedAutopilot } from '../api/autopilots.api';
import { AutopilotHistory } from './autopilot-history.view';
import { AutopilotRun } from './autopilot-run.view';
import { ConfirmDialog, CopyField, SecretDialog } from './dialog.view';

/** One autopilot: how it fires (schedule, webhook URL, secret rotation), a manual run, enable, edit, delete, and its history. */
export function AutopilotDetail(props: {
  readonly autopilot: Autopilot;
  readonly agentName: string;
  readonly canManage: boolean;
  readonly canRun: boolean;
  readonly onEdit: () => void;
  readonly onDeleted: () => void;
}) {
  const { autopilot, canManage } = props;
  const queries = useQueryClient();
  const [confirming, setConfirming] = useState<'delete' | 'rotate'>();
  const [secret, setSecret] = useState<CreatedAutopilot>();
  const refresh = () => queries.invalidateQueries({ queryKey: autopilotKeys.all });
  const toggle = useMutation({ mutationFn: () => updateAutopilot(autopilot.id, { enabled: !autopilot.enabled }), onSuccess: refresh });
  const rotate = useMutation({
    mutationFn: () => rotateWebhookSecret(autopilot.id),
    onSuccess: (created) => {
      setConfirming(undefined);
      setSecret(created);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteAutopilot(autopilot.id),
    onSuccess: async () => {
      setConfirming(undefined);
      await refresh();
      props.onDeleted();
    },
  });
  const closeConfirm = () => {
    setConfirming(undefined);
    rotate.reset();
    remove.reset();
  };
  return (
    <section className="card autopilot-detail" aria-labelledby="autopilot-detail-title" data-testid="autopilot-detail">
      <div className="section-header">
        <h2 id="autopilot-detail-title">{autopilot.name}</h2>
        {canManage ? (
          <div className="form-actions">
            <button type="button" onClick={props.onEdit} data-testid="autopilot-edit">
              Edit
            </button>
            <button type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending} data-testid="autopilot-toggle">
              {toggle.isPending ? 'Saving…' : autopilot.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" className="danger" onClick={() => setConfirming('delete')} data-testid="autopilot-delete">
              Delete
            </button>
          </div>
        ) : null}
      </div>
      {toggle.isError ? <p role="alert">{describeError(toggle.error)}</p> : null}
      <dl className="facts">
        <dt>Agent</dt>
        <dd>{props.agentName}</dd>
        <dt>Mode</dt>
        <dd>{autopilot.mode === 'run_only' ? 'run only (one task per firing)' : 'create an issue per firing'}</dd>
        <dt>Schedule</dt>
        <dd>{autopilot.schedule ? <code>{autopilot.schedule}</code> : 'none: webhook and by hand only'} {autopilot.schedule ? '(UTC)' : ''}</dd>
        <dt>State</dt>
        <dd>{autopilot.enabled ? 'enabled' : 'disabled: not scheduled, webhook refused'}</dd>
      </dl>
      <details>
        <summary>Instructions</summary>
        <p className="pre-wrap">{autopilot.instructions}</p>
      </details>
      <section aria-labelledby="autopilot-webhook-title">
        <h3 id="autopilot-webhook-title">Webhook</h3>
        <CopyField label="Webhook URL (POST)" value={webhookUrl(autopilot.id)} testId="autopilot-webhook-url" />
        <p className="hint">
          Send the secret as <code>{AUTOPILOT_SECRET_HEADER}</code>; the JSON body becomes the payload. The secret was shown when the autopilot was made
          {canManage ? ': rotate it to get a new one (the old one stops working).' : '.'}
        </p>
        {canManage ? (
          <button type="button" onClick={() => setConfirming('rotate')} data-testid="autopilot-rotate-secret">
            Rotate the secret
          </button>
        ) : null}
      </section>
      {props.canRun ? <AutopilotRun autopilot={autopilot} /> : null}
      <AutopilotHistory autopilot={autopilot} />
      {confirming === 'delete' ? (
        <ConfirmDialog title={`Delete ${autopilot.name}?`} confirmLabel="Delete" busyLabel="Deleting…" busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate()} onCancel={closeConfirm}>
          <p>It stops firing. The tasks and issues it made stay.</p>
        </ConfirmDialog>
      ) : null}
      {confirming === 'rotate' ? (
        <ConfirmDialog title="Rotate the webhook secret?" confirmLabel="Rotate" busyLabel="Rotating…" busy={rotate.isPending} error={rotate.error} onConfirm={() => rotate.mutate()} onCancel={closeConfirm}>
          <p>Callers using the current secret are refused from now on.</p>
        </ConfirmDialog>
      ) : null}
      {secret ? <AutopilotSecretDialog created={secret} onClose={() => setSecret(undefined)} /> : null}
    </section>
  );
}

/** The webhook secret, shown once (at creation or rotation), with a ready-made call. */
export function AutopilotSecretDialog(props: { readonly created: CreatedAutopilot; readonly onClose: () => void }) {
  return (
    <SecretDialog title={`Webhook secret of ${props.created.name}`} secretLabel="Webhook secret" secret={props.created.webhookSecret} onClose={props.onClose}>
      <CopyField label="Call it with" value={webhookCurl(props.created.id, props.created.webhookSecret)} multiline testId="autopilot-webhook-curl" />
    </SecretDialog>
  );
}
