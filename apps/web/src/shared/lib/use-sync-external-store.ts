/**
 * What `use-sync-external-store/shim` gives on React 18 and later: React's own hook (the build
 * points the shim here, see vite.config.ts; react-i18next imports it for older Reacts).
 */
export { useSyncExternalStore } from 'react';
