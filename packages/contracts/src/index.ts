export * from './errors.ts';
export * from './messages.ts';
export * from './input.ts';
export * from './auth.ts';
export * from './balance.ts';
export * from './admin.ts';
export * from './vps.ts';
export * from './monitoring-statistics.ts';
