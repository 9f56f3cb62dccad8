export * from './errors.ts';
export * from './auth.ts';
