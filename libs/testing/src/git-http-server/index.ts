export * from './git-http.server';
export * from './origin-repository';
