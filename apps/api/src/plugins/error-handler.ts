import {
  apiErrorSchema,
  ERROR_MESSAGES,
  isErrorCode,
  type ApiError,
  type ErrorCode,
} from '@tradehost/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { TransactionRetriesExhausted } from '../db/transaction.ts';
import { AppError, StepUpRequiredError, type FieldErrors } from '../lib/errors.ts';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

/** 422 from schema validation: every field's texts, the first issue's text as the message. */
export function validationBody(issues: ValidationIssue[]): ApiError {
  const errors: FieldErrors = {};
  let first: ErrorCode | undefined;
  for (const issue of issues) {
    const code: ErrorCode = isErrorCode(issue.message) ? issue.message : 'VALIDATION';
    first ??= code;
    const field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    if (!field) continue;
    const texts = (errors[field] ??= []);
    if (!texts.includes(ERROR_MESSAGES[code])) texts.push(ERROR_MESSAGES[code]);
  }
  const code = first ?? 'VALIDATION';
  return {
    message: ERROR_MESSAGES[code],
    code,
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
  };
}

const CLIENT_ERROR_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/** OpenAPI `response` entries: the error shape under each of `statuses`. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, apiErrorSchema]));
}

export function errorBody(code: ErrorCode, errors?: FieldErrors): ApiError {
  return { message: ERROR_MESSAGES[code], code, ...(errors ? { errors } : {}) };
}

/** What may be logged of a failure: a drizzle error's text carries the query parameters (hashes, e-mails). */
function loggable(error: unknown): unknown {
  if (error instanceof DrizzleQueryError) {
    const cause = error.cause as { message?: string; code?: string; stack?: string } | undefined;
    return {
      type: 'DrizzleQueryError',
      query: error.query,
      message: cause?.message,
      code: cause?.code,
      stack: cause?.stack,
    };
  }
  return error;
}

/**
 * 404 NOT_FOUND JSON for unknown /api paths; other paths go to `fallback` (the
 * console's index.html) when there is one.
 */
export function notFoundHandler(
  fallback?: (request: FastifyRequest, reply: FastifyReply) => unknown,
) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/');
    if (fallback && !isApi) return fallback(request, reply);
    return reply.code(404).send(errorBody('NOT_FOUND'));
  };
}

/**
 * One error shape for every failure: `{ message, code, errors? }`. Expected failures
 * (AppError, validation, 4xx from Fastify) keep their status; anything else is a 500
 * whose details go to the log only.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      // contention that outlasted the retries of inTransaction: busy, not broken
      if (error instanceof TransactionRetriesExhausted) {
        request.log.warn({ err: loggable(error.cause) }, 'transaction retries exhausted');
        return reply.code(503).send(errorBody('SERVICE_BUSY'));
      }
      if (error instanceof AppError) {
        return reply.code(error.statusCode).send({
          ...errorBody(error.code, error.errors),
          message: error.message,
          ...(error instanceof StepUpRequiredError ? { methods: error.methods } : {}),
        });
      }
      if (Array.isArray((error as FastifyError).validation)) {
        // a path that names nothing there can be
        if ((error as FastifyError).validationContext === 'params')
          return reply.code(404).send(errorBody('NOT_FOUND'));
        return reply.code(422).send(validationBody((error as FastifyError).validation ?? []));
      }
      const status = (error as FastifyError).statusCode ?? 500;
      if (status >= 400 && status < 500) {
        request.log.info(
          { code: (error as FastifyError).code, message: error.message },
          'client error',
        );
        return reply.code(status).send(errorBody(CLIENT_ERROR_CODES[status] ?? 'BAD_REQUEST'));
      }
      request.log.error({ err: loggable(error) }, 'request failed');
      return reply.code(500).send(errorBody('INTERNAL'));
    });
  },
  { name: 'tradehost-error-handler' },
);
