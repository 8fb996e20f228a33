import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { describeError } from '../api/api-error';
import { useSession } from '../session/session.context';
import { useState } from 'react';

const LINKS = [
  { to: '/', label: 'Board', end: true },
  { to: '/chat', label: 'Chat' },
  { to: '/agents', label: 'Agents' },
  { to: '/runtimes', label: 'Runtimes' },
  { to: '/autopilots', label: 'Autopilots' },
  { to: '/usage', label: 'Usage' },
  { to: '/members', label: 'Members' },
] as const;

/** The frame of every signed-in page: navigation, the workspace switcher, who is signed in. */
export function AppShell(props: { readonly children: ReactNode }) {
  const { session, workspace, chooseWorkspace, signOut } = useSession();
  const [error, setError] = useState<string>();
  return (
    <div className="shell">
      <header className="shell-header">
        <span className="brand">Switchyard</span>
        <nav aria-label="Main">
          <ul>
            {LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={'end' in link ? link.end : false}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <label className="workspace-switcher">
          <span className="visually-hidden">Workspace</span>
          <select value={workspace.workspaceId} onChange={(event) => chooseWorkspace(event.target.value)}>
            {session.memberships.map((membership) => (
              <option key={membership.workspaceId} value={membership.workspaceId}>
                {membership.workspaceName} ({membership.role})
              </option>
            ))}
          </select>
        </label>
        <span className="who">{session.user.displayName}</span>
        <button type="button" onClick={() => void signOut().catch((failure: unknown) => setError(describeError(failure)))}>
          Sign out
        </button>
      </header>
      {error ? <p role="alert">{error}</p> : null}
      <main className="shell-main">{props.children}</main>
    </div>
  );
}
