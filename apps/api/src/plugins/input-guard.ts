import { isStorableText } from '@tradehost/contracts';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, fieldError } from '../lib/errors.ts';

/**
 * What every request must be before any route sees it, whatever its schema says (schemas say
 * what a field is; these are the rules no field may break):
 * - no text anywhere (body, query, path) holds a NUL or a lone surrogate, which PostgreSQL cannot
 *   store: 422 TEXT_CHARACTERS_INVALID naming the field (a path's: 404, no such thing);
 * - a route without a body schema takes no body (an empty one, or `{}`): 400 BODY_NOT_ACCEPTED
 *   (its handler would otherwise meet data nobody validated);
 * - a JSON body is at most JSON_DEPTH_MAX deep (see jsonDepthExceeds, used by the app's parser).
 * Ids are bounded by their schemas (idSchema of the contracts).
 */

/** The deepest JSON body taken: the API's own are at most 3 deep (a list of objects in an object). */
export const JSON_DEPTH_MAX = 16;

/**
 * Whether JSON `text` nests arrays and objects deeper than `max`, found in one pass over the text
 * without parsing it (a parser, or anything walking the parsed value, could overflow the stack).
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * Where in `value` the first text that cannot be stored is: its path (`periods.0.name`), `at` for
 * `value` itself or an object key of it; undefined when there is none.
 */
export function unstorableTextAt(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : at;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return at;
    const found = unstorableTextAt(item, at ? `${at}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}

function refuseUnstorableText(request: FastifyRequest): void {
  if (unstorableTextAt(request.params) !== undefined) throw new AppError(404, 'NOT_FOUND');
  for (const value of [request.query, request.body]) {
    const field = unstorableTextAt(value);
    if (field === undefined) continue;
    throw field
      ? fieldError(422, field, 'TEXT_CHARACTERS_INVALID')
      : new AppError(422, 'TEXT_CHARACTERS_INVALID');
  }
}

/** An empty object says nothing either: clients (the console among them) send `{}` for "no data". */
const isEmptyObject = (body: unknown) =>
  typeof body === 'object' &&
  body !== null &&
  !Array.isArray(body) &&
  Object.keys(body).length === 0;

const refuseBody: preValidationAsyncHookHandler = async (request) => {
  if (request.body !== undefined && !isEmptyObject(request.body))
    throw new AppError(400, 'BODY_NOT_ACCEPTED');
};

export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    // a callback hook: the check is synchronous, and an async one costs every request a promise
    app.addHook('preValidation', (request, _reply, done) => {
      try {
        refuseUnstorableText(request);
      } catch (error) {
        return done(error as Error);
      }
      done();
    });
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      if (route.schema?.body || methods.every((m) => m === 'GET' || m === 'HEAD')) return;
      route.preValidation = [refuseBody, ...[route.preValidation ?? []].flat()];
    });
  },
  { name: 'tradehost-input-guard' },
);
