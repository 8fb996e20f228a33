export * from './headers';
