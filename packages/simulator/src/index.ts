export * from './clock.ts';
export * from './expert-advisor.ts';
export * from './history.ts';
export * from './publisher.ts';
export * from './scenarios.ts';
export * from './terminal-model.ts';
export * from './terminal.ts';
