import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../api/api.types';
import { describeError } from '../api/api-error';
import { createToken, listMyTokens, memberKeys, permissionsWithin, revokeToken, type ApiToken, type CreatedApiToken } from '../api/members.api';
import { useConfirmedAction } from './confirmed-action.hook';
import { ConfirmDialog, SecretDialog } from './dialog.view';
import { Pager, useClientPages } from './pager.view';

const PAGE_SIZE = 20;

/** The signed-in person's API tokens in this workspace: made with a name, optional scopes and expiry, shown once, revocable. */
export function MemberTokens(props: { readonly role: Role }) {
  const tokens = useQuery({ queryKey: memberKeys.tokens, queryFn: listMyTokens });
  const { pageItems, pager } = useClientPages(tokens.data ?? [], PAGE_SIZE, 'API tokens pages');
  const [created, setCreated] = useState<CreatedApiToken>();
  const revoke = useConfirmedAction({ act: (token: ApiToken) => revokeToken(token.id), refreshes: [memberKeys.tokens] });
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">My API tokens</h2>
      <p className="hint">For the CLI, scripts and CI. A token acts as you in this workspace, within its scopes and your role.</p>
      <TokenForm role={props.role} onCreated={setCreated} />
      {tokens.isPending ? <p role="status">Loading tokens…</p> : null}
      {tokens.isError ? <p role="alert">{describeError(tokens.error)}</p> : null}
      {tokens.data?.length === 0 ? <p className="hint">No tokens yet.</p> : null}
      {pageItems.length > 0 ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="API tokens table">
          <table className="data-table stacked-on-narrow">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Made</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {pageItems.map((token) => (
                <tr key={token.id} data-testid="token-row" data-token-id={token.id}>
                  <th scope="row">
                    {token.name}
                    {token.current ? <span className="hint"> (this one)</span> : null}
                  </th>
                  <td data-label="Scopes">{token.scopes === null ? 'all your role allows' : token.scopes.join(', ')}</td>
                  <td data-label="Made">{new Date(token.createdAt).toLocaleDateString()}</td>
                  <td data-label="Expires">{token.expiresAt ? new Date(token.expiresAt).toLocaleDateString() : 'never'}</td>
                  <td data-label="Last used">{token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : 'never'}</td>
                  <td data-label="Actions">
                    {token.revokedAt ? (
                      `revoked ${new Date(token.revokedAt).toLocaleDateString()}`
                    ) : (
                      <button type="button" className="danger" onClick={() => revoke.ask(token)} data-testid="token-revoke">
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager {...pager} />
      {created ? <SecretDialog title={`API token ${created.name}`} secretLabel="Token" secret={created.token} onClose={() => setCreated(undefined)} /> : null}
      {revoke.target ? (
        <ConfirmDialog title={`Revoke ${revoke.target.name}?`} confirmLabel="Revoke" busyLabel="Revoking…" {...revoke.dialog}>
          <p>Requests with it are refused from now on, and connections it opened are closed.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function TokenForm(props: { readonly role: Role; readonly onCreated: (created: CreatedApiToken) => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<readonly string[]>([]);
  const [expiresInDays, setExpiresInDays] = useState('');
  const permissions = permissionsWithin(props.role);
  const create = useMutation({
    mutationFn: () =>
      createToken({ name: name.trim(), ...(scopes.length > 0 ? { scopes: [...scopes] } : {}), ...(expiresInDays.trim() ? { expiresInDays: Number(expiresInDays) } : {}) }),
    onSuccess: async (created) => {
      setName('');
      setScopes([]);
      setExpiresInDays('');
      props.onCreated(created);
      await queries.invalidateQueries({ queryKey: memberKeys.tokens });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = (permission: string, checked: boolean) => setScopes((current) => (checked ? [...current, permission] : current.filter((scope) => scope !== permission)));
  return (
    <form className="token-form" onSubmit={submit} aria-label="Make an API token">
      <div className="inline-form">
        <label>
          Name
          <input value={name} required maxLength={100} onChange={(event) => setName(event.target.value)} placeholder="e.g. ci, laptop" data-testid="token-name" />
        </label>
        <label>
          Expires after (days, optional)
          <input type="number" min={1} max={3650} step={1} value={expiresInDays} onChange={(event) => setExpiresInDays(event.target.value)} data-testid="token-expiry" />
        </label>
      </div>
      <details>
        <summary>Scopes ({scopes.length === 0 ? 'none chosen: all your role allows' : `${scopes.length} chosen`})</summary>
        <fieldset className="scope-list">
          <legend className="visually-hidden">Scopes</legend>
          {permissions.map((permission) => (
            <label key={permission.name} className="checkbox">
              <input type="checkbox" checked={scopes.includes(permission.name)} onChange={(event) => toggle(permission.name, event.target.checked)} value={permission.name} />
              <span>
                <code>{permission.name}</code> <span className="hint">{permission.what}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </details>
      <button type="submit" className="primary" disabled={create.isPending || name.trim() === ''} data-testid="token-create">
        {create.isPending ? 'Making…' : 'Make token'}
      </button>
      {create.isError ? <p role="alert">{describeError(create.error)}</p> : null}
    </form>
  );
}
