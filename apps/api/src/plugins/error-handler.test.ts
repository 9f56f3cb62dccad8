import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { TransactionRetriesExhausted } from '../db/transaction.ts';
import { errorHandlerPlugin } from './error-handler.ts';

describe('errorHandlerPlugin', () => {
  it('answers 503 SERVICE_BUSY when a transaction kept conflicting past its retries', async () => {
    const app = Fastify({ logger: false });
    await app.register(errorHandlerPlugin);
    app.get('/busy', async () => {
      throw new TransactionRetriesExhausted(
        Object.assign(new Error('deadlock'), { code: '40P01' }),
      );
    });
    const res = await app.inject('/busy');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      message: 'The service is busy. Please try again later',
      code: 'SERVICE_BUSY',
    });
    await app.close();
  });
});
