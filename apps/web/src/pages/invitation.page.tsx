import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { api, setCurrentWorkspaceId } from '../api/http-client';

/** An invitation link: a signed-in person joins with one click; anyone else makes an account. */
export function InvitationPage(props: { readonly signedIn: boolean }) {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const accept = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      const body = props.signedIn ? {} : { ...(email ? { email } : {}), ...(displayName ? { displayName } : {}), password };
      const accepted = await api.post<{ workspaceId: string }>(`/api/invitations/${encodeURIComponent(token)}/accept`, body);
      setCurrentWorkspaceId(accepted.workspaceId);
      await queries.invalidateQueries({ queryKey: ['session'] });
      void navigate('/');
    } catch (failure) {
      setError(describeError(failure));
    }
  };
  return (
    <main className="sign-in">
      <h1>Join a Switchyard workspace</h1>
      <form onSubmit={(event) => void accept(event)} aria-label="Accept the invitation">
        {props.signedIn ? null : (
          <>
            <label>
              Email
              <input type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.target.value)} />
            </label>
            <label>
              Your name
              <input value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
            </label>
            <label>
              Password (12 characters or more)
              <input type="password" autoComplete="new-password" required minLength={12} value={password} onChange={(event) => setPassword(event.target.value)} />
            </label>
          </>
        )}
        <button type="submit">Accept the invitation</button>
        {error ? <p role="alert">{error}</p> : null}
      </form>
    </main>
  );
}
