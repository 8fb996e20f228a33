export * from './work-directory.collector';
export * from './work-directory-removal.decider';
export { measureDirectorySize, type DirectorySize } from './directory-size.meter';
export { describeWorkDirectoryRemoval, readWorkDirectoryTombstone, TOMBSTONE_RETENTION_MS, type WorkDirectoryTombstone } from '../exec-env/work-directory.tombstone';
