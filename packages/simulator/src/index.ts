export * from './history.ts';
export * from './publisher.ts';
export * from './terminal.ts';
