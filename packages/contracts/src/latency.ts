import * as z from 'zod/mini';
import { pageOf, pagingFields } from './balance.ts';

/**
 * The latency map: how far each VPS location of the rate catalogue is from a broker's trade
 * server, as the publishers of monitored terminals running on our servers measured it
 * (TERMINAL_PING_LAST, a point a minute), so that the order form can say where to put a terminal.
 * Aggregates only: a figure stands for the terminals of at least LATENCY_MIN_OWNERS different
 * owners, or is not given, so that no account can be singled out.
 */

/** The measurements a figure is made of: those of the last this many days. */
export const LATENCY_WINDOW_DAYS = 30;
/**
 * A (broker server, location) is shown only when its measurements come from terminals of at
 * least this many different owners (so at least as many terminals): an owner who is one of them
 * still sees a mix of two others at least. Fewer, and it reads as not measured.
 */
export const LATENCY_MIN_OWNERS = 3;
/** Broker server names suggested at most. */
export const BROKER_SUGGESTIONS_MAX = 10;
/** A trade server's name, as the publisher's hello takes it. */
export const BROKER_SERVER_MAX = 128;

const brokerText = (error: 'BROKER_SERVER_INVALID' | 'BROKER_QUERY_INVALID') =>
  z
    .string({ error })
    .check(z.trim(), z.minLength(1, { error }), z.maxLength(BROKER_SERVER_MAX, { error }));

/** GET /api/user/vps/latency?broker=: the broker's trade server as the terminal names it. */
export const latencyQuerySchema = z.object({ broker: brokerText('BROKER_SERVER_INVALID') });
export type LatencyQuery = z.infer<typeof latencyQuerySchema>;

/**
 * A location's figures: the median and the 90th percentile of the pings measured (interpolated
 * between the two nearest, as PostgreSQL's percentile_cont, then rounded half up to a whole
 * millisecond), and how many terminals measured them.
 */
export const latencyFiguresSchema = z.object({
  median_ms: z.int(),
  p90_ms: z.int(),
  terminals: z.int(),
});
export type LatencyFigures = z.infer<typeof latencyFiguresSchema>;

/**
 * Every location of the rate catalogue (its offered rates), in the catalogue's order, each with
 * its figures to the broker's server, or null: not measured, or by too few owners' terminals.
 * A broker's name is matched whatever its case.
 */
export const latencyResponseSchema = z.object({
  broker: z.string(),
  /** The measurements' window: from this moment to now. */
  since: z.string(),
  locations: z.array(z.object({ location: z.string(), ping: z.nullable(latencyFiguresSchema) })),
});
export type LatencyResponse = z.infer<typeof latencyResponseSchema>;

/** GET /api/user/vps/brokers?query=: the start of a trade server's name, any case. */
export const brokersQuerySchema = z.object({ query: brokerText('BROKER_QUERY_INVALID') });
export type BrokersQuery = z.infer<typeof brokersQuerySchema>;

/**
 * Trade server names some terminal has measured a ping to, as their hellos named them, in
 * alphabetical order (any case), at most BROKER_SUGGESTIONS_MAX.
 */
export const brokersResponseSchema = z.object({ brokers: z.array(z.string()) });
export type BrokersResponse = z.infer<typeof brokersResponseSchema>;

/**
 * GET /api/admin/vps/latency: every (location, broker server) with figures, under the same rule,
 * by location then the most terminals; `location` narrows to one location, `broker` to the
 * servers whose name starts so.
 */
export const adminLatencyQuerySchema = z.object({
  location: z.optional(
    z.string({ error: 'VALIDATION' }).check(z.maxLength(100, { error: 'VALIDATION' })),
  ),
  broker: z.optional(brokerText('BROKER_QUERY_INVALID')),
  ...pagingFields(50),
});
export type AdminLatencyQuery = z.input<typeof adminLatencyQuerySchema>;

export const adminLatencyRowSchema = z.object({
  location: z.string(),
  broker: z.string(),
  median_ms: z.int(),
  p90_ms: z.int(),
  terminals: z.int(),
});
export type AdminLatencyRow = z.infer<typeof adminLatencyRowSchema>;
export const adminLatencyPageSchema = z.extend(pageOf(adminLatencyRowSchema), {
  since: z.string(),
});
export type AdminLatencyPage = z.infer<typeof adminLatencyPageSchema>;
