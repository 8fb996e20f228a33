/**
 * The queue's claim candidates ($1 runtime ids, $2 now, $3 limit): queued (and due deferred) rows
 * of the runtimes, highest priority first, FIFO within a priority, rows another claimer holds
 * skipped, with the candidates' agents' claim locks taken in one global order (Postgres evaluates
 * a volatile function of the select list after the sort). One statement, so the claim and the
 * bench that explains its plan send the same text.
 */
export const CLAIM_CANDIDATES_SQL = `with candidate as (
       select task_id, agent_id, issue_id, chat_session_id, priority, enqueued_at
         from agent_task_queue
        where runtime_id = any($1::text[])
          and (status = 'queued' or (status = 'deferred' and fire_at <= $2))
          and (expires_at is null or expires_at > $2)
        order by priority desc, enqueued_at, task_id
        limit $3
        for update skip locked),
     agent_lock as (
       select pg_advisory_xact_lock(hashtextextended(agent.agent_id, 11)) from (select distinct agent_id from candidate) as agent order by agent.agent_id)
     select task_id, agent_id, issue_id, chat_session_id
       from candidate
      where (select count(*) from agent_lock) >= 0
      order by priority desc, enqueued_at, task_id`;
