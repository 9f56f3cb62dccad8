// The Redis store @fastify/rate-limit ships (the one its `redis` option makes), without types of its own.
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { Redis } from 'ioredis';

  type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

  class RedisStore {
    constructor(
      continueExceeding: boolean,
      exponentialBackoff: boolean,
      redis: Redis,
      nameSpace?: string,
    );
    incr(key: string, callback: IncrCallback, timeWindow?: number, max?: number): void;
    child(routeOptions: object): RedisStore;
  }
  export default RedisStore;
}
