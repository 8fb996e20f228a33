import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { describeError } from '../api/api-error';
import { api } from '../api/http-client';

/** Email and password; the gateway sets the session cookies. A first owner signs in with the link `npm start` printed. */
export function SignInPage() {
  const queries = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.post('/api/auth/sign-in', { email, password });
      await queries.invalidateQueries({ queryKey: ['session'] });
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <h1>Sign in to Switchyard</h1>
      <form onSubmit={(event) => void submit(event)} aria-label="Sign in">
        <label>
          Email
          <input type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label>
          Password
          <input type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error ? <p role="alert">{error}</p> : null}
      </form>
      <p className="hint">No password yet? An admin prints you a sign-in link: <code>npm run admin -- sign-in-link --email you@example.com</code>.</p>
    </main>
  );
}
