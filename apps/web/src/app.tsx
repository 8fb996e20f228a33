import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { describeError } from './api/api-error';
import { AppShell } from './layout/app-shell';
import { InvitationPage } from './pages/invitation.page';
import { SignInPage } from './pages/sign-in.page';
import { SessionProvider, useSessionQuery } from './session/session.context';
import { LiveProvider } from './timeline/live.context';

// Each page is its own chunk: the first load carries the shell and the board only.
const BoardPage = lazy(() => import('./pages/board.page').then((module) => ({ default: module.BoardPage })));
const IssuePage = lazy(() => import('./pages/issue.page').then((module) => ({ default: module.IssuePage })));
const ChatPage = lazy(() => import('./pages/chat.page').then((module) => ({ default: module.ChatPage })));
const AgentsPage = lazy(() => import('./pages/agents.page').then((module) => ({ default: module.AgentsPage })));
const RuntimesPage = lazy(() => import('./pages/runtimes.page').then((module) => ({ default: module.RuntimesPage })));
const AutopilotsPage = lazy(() => import('./pages/autopilots.page').then((module) => ({ default: module.AutopilotsPage })));
const UsagePage = lazy(() => import('./pages/usage.page').then((module) => ({ default: module.UsagePage })));
const MembersPage = lazy(() => import('./pages/members.page').then((module) => ({ default: module.MembersPage })));

export function App() {
  const session = useSessionQuery();
  if (session.isPending) return <p className="loading" role="status">Loading…</p>;
  if (session.isError) return <p role="alert">The gateway did not answer: {describeError(session.error)}</p>;
  return (
    <Routes>
      <Route path="/invitations/:token" element={<InvitationPage signedIn={session.data !== null} />} />
      {session.data === null ? (
        <Route path="*" element={<SignInPage />} />
      ) : (
        <Route
          path="*"
          element={
            <SessionProvider session={session.data}>
              <LiveProvider>
              <AppShell>
                <Suspense fallback={<p className="loading" role="status">Loading…</p>}>
                  <Routes>
                    <Route path="/" element={<BoardPage />} />
                    <Route path="/issues/:issueId" element={<IssuePage />} />
                    <Route path="/chat" element={<ChatPage />} />
                    <Route path="/chat/:chatSessionId" element={<ChatPage />} />
                    <Route path="/agents" element={<AgentsPage />} />
                    <Route path="/agents/:agentId" element={<AgentsPage />} />
                    <Route path="/runtimes" element={<RuntimesPage />} />
                    <Route path="/autopilots" element={<AutopilotsPage />} />
                    <Route path="/usage" element={<UsagePage />} />
                    <Route path="/members" element={<MembersPage />} />
                    <Route path="/sign-in" element={<Navigate to="/" replace />} />
                    <Route path="*" element={<p role="alert">No such page.</p>} />
                  </Routes>
                </Suspense>
              </AppShell>
              </LiveProvider>
            </SessionProvider>
          }
        />
      )}
    </Routes>
  );
}
