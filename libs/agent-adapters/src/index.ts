export * from './runner/line-splitter';
