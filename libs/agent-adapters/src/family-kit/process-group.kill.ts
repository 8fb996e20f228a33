/** How every family's run is ended in the end, as the families endpoint and the docs say it. */
export const PROCESS_GROUP_KILL = 'the daemon ends the whole process group (TERM, then KILL after a grace period)';
