import { timestamp } from 'drizzle-orm/pg-core';

/** Every point in time is a timestamptz (UTC in, ISO-8601 out). */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true });
