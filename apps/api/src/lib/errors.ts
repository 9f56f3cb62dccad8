import { ERROR_MESSAGES, type ErrorCode } from '@tradehost/contracts';

export type FieldErrors = Record<string, string[]>;

/** An expected failure: answered as `{ message, code, errors? }` with its status. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly errors: FieldErrors | undefined;

  /** `message` replaces the code's text where the answer must name something (an account number). */
  constructor(statusCode: number, code: ErrorCode, errors?: FieldErrors, message?: string) {
    super(message ?? ERROR_MESSAGES[code]);
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.errors = errors;
  }
}

/**
 * 403 STEP_UP_REQUIRED: the action needs a fresh proof of the owner (plugins/step-up.ts);
 * `methods` names the proofs the account can give, and the answer carries them.
 */
export class StepUpRequiredError extends AppError {
  readonly methods: readonly string[];

  constructor(methods: readonly string[]) {
    super(403, 'STEP_UP_REQUIRED');
    this.methods = methods;
  }
}

/** A failure tied to form fields, in field order: the first one gives the message and code. */
export function fieldErrors(
  statusCode: number,
  fields: [field: string, code: ErrorCode][],
): AppError {
  const [first] = fields;
  if (!first) throw new Error('fieldErrors needs at least one field');
  const errors: FieldErrors = {};
  for (const [field, code] of fields) (errors[field] ??= []).push(ERROR_MESSAGES[code]);
  return new AppError(statusCode, first[1], errors);
}

export function fieldError(statusCode: number, field: string, code: ErrorCode): AppError {
  return fieldErrors(statusCode, [[field, code]]);
}

/** The PostgreSQL error behind a (possibly drizzle-wrapped) failure, if any. */
export function pgErrorOf(error: unknown): { code?: string; constraint?: string } | undefined {
  for (
    let e: unknown = error, depth = 0;
    e && depth < 3;
    e = (e as { cause?: unknown }).cause, depth += 1
  ) {
    if (
      typeof e === 'object' &&
      'code' in e &&
      typeof e.code === 'string' &&
      /^[0-9A-Z]{5}$/.test(e.code)
    ) {
      return e as { code?: string; constraint?: string };
    }
  }
  return undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = pgErrorOf(error);
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}

/** A row refers to one that is gone (a foreign key), e.g. deleted while it was being written. */
export function isForeignKeyViolation(error: unknown): boolean {
  return pgErrorOf(error)?.code === '23503';
}
