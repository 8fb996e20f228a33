import { useQuery } from '@tanstack/react-query';
import { listDaemons, runtimeKeys } from '../api/runtimes.api';
import { useRoleAtLeast } from '../session/session.context';
import { DaemonList } from '../components/daemon-list.view';
import { RuntimeList } from '../components/runtime-list.view';

/** Runtimes (the agent CLIs the daemons found) and the daemons themselves, with enrollment and revocation. */
export function RuntimesPage() {
  const canManage = useRoleAtLeast('admin');
  const canReadDaemons = useRoleAtLeast('member');
  const daemons = useQuery({ queryKey: runtimeKeys.daemons, queryFn: listDaemons, enabled: canReadDaemons, retry: false });
  return (
    <div className="stack">
      <header className="page-header">
        <h1>Runtimes and daemons</h1>
      </header>
      <RuntimeList daemons={daemons.data ?? []} />
      {canReadDaemons ? <DaemonList daemons={daemons} canManage={canManage} /> : <p className="hint">Members and above see the daemons.</p>}
    </div>
  );
}
