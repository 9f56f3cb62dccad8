export * from './users.ts';
export * from './auth.ts';
export * from './settings.ts';
export * from './alerts.ts';
export * from './money.ts';
export * from './vps.ts';
export * from './monitoring.ts';
export * from './partners.ts';
