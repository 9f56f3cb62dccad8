import * as z from 'zod/mini';

// The codes and texts are a module of their own, free of zod: the console's first view needs
// them, not the schema below.
export { ERROR_MESSAGES, errorCodeOf, isErrorCode, type ErrorCode } from './error-codes.ts';

/** The body of every 4xx and 5xx answer. `errors` maps a field to its messages. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
  /** With STEP_UP_REQUIRED: the proofs this account can give (STEP_UP_METHODS). */
  methods: z.optional(z.array(z.string())),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
