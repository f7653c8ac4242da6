export * from './body.ts';
export * from './query.ts';
