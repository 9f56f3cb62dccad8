import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodError, $ZodType, safeParse, toJSONSchema } from 'zod/v4/core';

export type Stringify = (data: unknown) => string;

/** A response schema as routes give it: a zod type, or `{ properties: <zod type> }`. */
function zodTypeOf(schema: unknown): $ZodType {
  if (schema instanceof $ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (properties instanceof $ZodType) return properties;
  throw new Error(`a response schema is a zod type: ${JSON.stringify(schema)}`);
}

/**
 * The JSON Schema of a zod response schema as fast-json-stringify reads it: what the schema
 * gives out (`io: 'output'`), nullables as OpenAPI 3.0's `nullable` (which fast-json-stringify
 * writes directly, where an `anyOf` with `null` would make it run a validator for every value).
 * `additionalProperties: false` is dropped: fast-json-stringify writes only the listed properties
 * either way, and inside a union, whose branch it picks with a validator, it would refuse an
 * object with more properties than its branch lists, where zod takes the branch and drops them.
 * Throws for a schema JSON Schema cannot say (a transform); a test compiles every route's.
 */
function responseJsonSchema(schema: $ZodType): object {
  const json = toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'output',
    unrepresentable: 'throw',
    cycles: 'ref',
    reused: 'inline',
  });
  const open = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(open);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
        .map(([key, value]) => [key, open(value)]),
    );
  };
  return open(json) as object;
}

/** The compiled writer of a route's response schema (throws for one JSON Schema cannot say). */
export function compileResponse(schema: unknown): Stringify {
  const jsonSchema = responseJsonSchema(zodTypeOf(schema));
  return fastJsonStringify(jsonSchema as Parameters<typeof fastJsonStringify>[0]) as Stringify;
}

/**
 * Fastify's serialiser compiler for the zod response schemas: each answer is written by a
 * function fast-json-stringify compiled from its schema (once, on the route's first answer of
 * that status, so that an app starts without compiling all of its routes), in place of
 * fastify-type-provider-zod's zod parse and JSON.stringify for every answer. The JSON is the
 * same value: only the schema's properties (fast-json-stringify writes the optional ones last).
 *
 * What the compiled function does not do is check: a value of the wrong type is converted, not
 * refused. `check` (NODE_ENV=test: every API test and browser journey) does what the zod
 * serialiser did as well: the answer must satisfy its schema (500 otherwise, as before), and the
 * compiled function's JSON must equal JSON.stringify of zod's output, so every test is also a
 * test that the compiled serialisers say what the schemas say.
 */
export function responseSerializerCompiler({
  check,
}: {
  check: boolean;
}): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url }) => {
    const type = zodTypeOf(schema);
    let compiled: Stringify | undefined;
    const stringify: Stringify = (data) => {
      compiled ??= compileResponse(type);
      return compiled(data);
    };
    if (!check) return stringify;
    return (data) => {
      const result = safeParse(type, data);
      if (!result.success)
        throw new ResponseSerializationError(method, url, { cause: result.error });
      const expected = JSON.stringify(result.data);
      const text = stringify(data);
      if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(expected)))
        throw new ResponseSerializationError(method, url, {
          cause: new $ZodError([
            {
              code: 'custom',
              path: [],
              input: data,
              message: `compiled: ${text}\nschema: ${expected}`,
            },
          ]),
        });
      return text;
    };
  };
}
