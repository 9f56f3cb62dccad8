import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { stdoutLog } from './log-destination.ts';

/** What the log says of a request: its method, its path without the query, its client. */
function requestFields(request: FastifyRequest) {
  // no query strings in the log: page URLs can carry one-time tokens (/login?verify=...)
  return { method: request.method, url: request.url.split('?')[0], remoteAddress: request.ip };
}

/** A pino logger's own state that the request line needs: its bindings as text, its stream. */
interface PinoState {
  [pino.symbols.chindingsSym]: string;
  [pino.symbols.streamSym]: { write(line: string): unknown };
}

/** pino's number for `info`. */
const INFO = pino.levels.values.info!;

/**
 * The request log: one line per request, written as it is answered (Fastify writes two, one as
 * it comes in): the request (method, path without its query, client address), the status and
 * the time taken; `request errored` with the error for an answer that failed to go out. Fastify's
 * other lines (a stream's error, a route not found) are kept.
 *
 * The `request completed` line is the one every request writes, so it is built here in one
 * JSON.stringify, as the very line pino would write for it (its level, time and the request
 * logger's bindings, then the fields, in pino's order), and given to the logger's stream. Through
 * pino's own path it cost 5-6 µs a request in the server (serializers, a stringify per field, a
 * concatenation per key); `lib/request-log.test.ts` holds the two lines equal.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const responseTime = reply.elapsedTime;
    // Fastify's request logger is a pino child: its state is pino's (pino.symbols is pino's API)
    const log = reply.log as pino.Logger & PinoState;
    if (error) {
      log.error({ req: request, res: reply, responseTime, err: error }, 'request errored');
      return;
    }
    if (!log.isLevelEnabled('info')) return;
    const fields = JSON.stringify({
      req: requestFields(request),
      res: { statusCode: reply.statusCode },
      responseTime,
      msg: 'request completed',
    });
    log[pino.symbols.streamSym].write(
      `{"level":${INFO},"time":${Date.now()}${log[pino.symbols.chindingsSym]},${fields.slice(1)}\n`,
    );
  }
}

/** Fastify's options for the request log at `level`, to stdout unless given a stream. */
export function requestLogging(level: string, stream?: NodeJS.WritableStream) {
  return {
    logger: {
      level,
      serializers: { req: requestFields },
      stream: stream ?? stdoutLog(),
    },
    logController: new OneLinePerRequest(),
  };
}
