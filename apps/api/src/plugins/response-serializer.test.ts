import { userSchema } from '@tradehost/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { compileResponse, responseSerializerCompiler } from './response-serializer.ts';

/** What fastify-type-provider-zod's serialiser wrote: zod's output, through JSON.stringify. */
const throughZod = (schema: z.ZodMiniType, data: unknown) => JSON.stringify(z.parse(schema, data));

const route = (schema: unknown, check: boolean) =>
  responseSerializerCompiler({ check })({
    schema,
    method: 'GET',
    url: '/api/example',
    httpStatus: '200',
  });

const server = z.object({
  id: z.int(),
  name: z.string(),
  status: z.enum(['active', 'stopped']),
  price: z.number(),
  ip: z.nullable(z.string()),
  plan: z.nullable(z.object({ id: z.int(), title: z.string() })),
  note: z.optional(z.string()),
  tags: z.array(z.string()),
  limits: z.record(z.string(), z.number()),
  last: z.union([
    z.object({ kind: z.literal('payment'), amount: z.number() }),
    z.object({ kind: z.literal('message'), text: z.string() }),
  ]),
});
const page = z.object({ data: z.array(server), total: z.int() });

const text = fc.string({ unit: 'binary', maxLength: 12 });
const serverValue = fc.record(
  {
    id: fc.integer(),
    name: text,
    status: fc.constantFrom('active', 'stopped'),
    price: fc.double({ noNaN: true, noDefaultInfinity: true }),
    ip: fc.option(text),
    plan: fc.option(fc.record({ id: fc.integer(), title: text, secret: text })),
    note: text,
    tags: fc.array(text, { maxLength: 3 }),
    limits: fc.dictionary(fc.string({ maxLength: 5 }), fc.integer()),
    last: fc.oneof(
      fc.record({
        kind: fc.constant('payment'),
        amount: fc.double({ noNaN: true, noDefaultInfinity: true }),
        extra: text,
      }),
      fc.record({ kind: fc.constant('message'), text, extra: text }),
    ),
    password_hash: text,
  },
  { requiredKeys: ['id', 'name', 'status', 'price', 'ip', 'plan', 'tags', 'limits', 'last'] },
);

describe('compiled response serialisation', () => {
  it('writes what zod and JSON.stringify wrote: a user, with properties the schema does not list left out', () => {
    const user = {
      id: 7,
      created_at: '2026-11-29T10:00:00.000Z',
      email: 'trader@example.com',
      name: 'Ann "the scalper" \\ O\u2019Neil\n',
      language: 'ru',
      role: 'admin',
      operator_roles: ['billing', 'support'],
      email_verified_at: null,
      referral_code: 'ABC123',
      photo_path: null,
      telegram_link: 'https://t.me/x',
      telegram_mon_link: null,
      balance: 1234.56,
      balance_partner: 0.1 + 0.2,
      password_hash: '$argon2id$secret',
    };
    const written = compileResponse(userSchema)(user);
    // the same value; fast-json-stringify writes the optional operator_roles after the required
    expect(JSON.parse(written)).toEqual(JSON.parse(throughZod(userSchema, user)));
    expect(written).not.toContain('argon2');
  });

  it('writes null and present nullable objects, a missing optional, a union branch without its extras', () => {
    const value = {
      id: 1,
      name: 'VPS-1',
      status: 'active',
      price: 10.5,
      ip: null,
      plan: null,
      tags: [],
      limits: { cpu: 2 },
      last: { kind: 'message', text: 'hi', extra: 'dropped' },
    };
    expect(JSON.parse(compileResponse(server)(value))).toEqual(
      JSON.parse(throughZod(server, value)),
    );
    expect(compileResponse(server)(value)).not.toContain('dropped');
    const withPlan = { ...value, plan: { id: 2, title: 'Pro', secret: 's' }, note: 'n' };
    expect(JSON.parse(compileResponse(server)(withPlan))).toEqual({
      ...withPlan,
      plan: { id: 2, title: 'Pro' },
      last: { kind: 'message', text: 'hi' },
    });
  });

  it('writes the same JSON as zod for any page of servers (generated, with any Unicode)', () => {
    const write = compileResponse(page);
    fc.assert(
      fc.property(
        fc.array(serverValue, { maxLength: 4 }),
        fc.integer({ min: 0 }),
        (data, total) => {
          const value = { data, total };
          expect(JSON.parse(write(value))).toEqual(JSON.parse(throughZod(page, value)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does not check: a wrong type is converted, where the tests’ check refuses it (500)', () => {
    const wrong = {
      id: '7',
      name: 'x',
      status: 'active',
      price: '10.5',
      ip: null,
      plan: null,
      tags: [],
      limits: {},
      last: { kind: 'payment', amount: 1 },
    };
    expect(JSON.parse(route(server, false)(wrong))).toMatchObject({ id: 7, price: 10.5 });
    expect(() => route(server, true)(wrong)).toThrow(
      expect.objectContaining({ code: 'FST_ERR_RESPONSE_SERIALIZATION', statusCode: 500 }),
    );
  });

  it('the tests’ check refuses an answer the compiled writer would send differently from zod', () => {
    // a zod overwrite (trim) changes the value yet is a plain string in JSON Schema
    const trimmed = z.object({ name: z.string().check(z.trim()) });
    expect(route(trimmed, false)({ name: ' padded ' })).toBe('{"name":" padded "}');
    expect(() => route(trimmed, true)({ name: ' padded ' })).toThrow(
      expect.objectContaining({
        statusCode: 500,
        cause: expect.objectContaining({
          issues: [
            expect.objectContaining({
              message: 'compiled: {"name":" padded "}\nschema: {"name":"padded"}',
            }),
          ],
        }),
      }),
    );
    expect(route(trimmed, true)({ name: 'plain' })).toBe('{"name":"plain"}');
  });

  it('cannot compile a schema JSON Schema cannot say (a transform): the route test finds it', () => {
    const transformed = z.pipe(
      z.string(),
      z.transform((s: string) => s.length),
    );
    expect(() => compileResponse(z.object({ n: transformed }))).toThrow();
  });
});
