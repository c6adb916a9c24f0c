import fastJson from 'fast-json-stringify';
import * as z from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * The contract schema (zod, generated) as a JSON Schema fast-json-stringify compiles well:
 * `anyOf [X, null]` (zod's nullable) becomes `type: [X, 'null']`, so no branch is tried at run time.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (node === null || typeof node !== 'object') return node;
  const schema = node as JsonSchema;
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nonNull = anyOf.find((s) => s.type !== 'null');
    const hasNull = anyOf.some((s) => s.type === 'null');
    if (hasNull && nonNull !== undefined && typeof nonNull.type === 'string') {
      const { anyOf: _a, ...rest } = schema;
      return simplify({ ...rest, ...nonNull, type: [nonNull.type, 'null'] });
    }
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    // Validation keywords do not change how a value is written.
    if (key === '$schema' || key === 'pattern' || key === 'propertyNames' || key === 'format') continue;
    out[key] =
      key === 'properties' && value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, simplify(v)]))
        : simplify(value);
  }
  return out;
}

/** A serializer compiled once from a contract schema (fast-json-stringify): no per-field type checks at run time. */
export function compileSerializer(schema: z.ZodType): (data: unknown) => string {
  const json = simplify(z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }));
  return fastJson(json as Parameters<typeof fastJson>[0]);
}

/**
 * The serializer of a hot route (the job list), compiled once. In strict mode (dev and tests) the
 * answer is checked against the contract first, as every other route's is (http/zod.ts), so a
 * drift still fails loudly; production only serializes.
 */
export function checkedSerializer(schema: z.ZodType, strict: boolean): (data: unknown) => string {
  const write = compileSerializer(schema);
  return (data: unknown) => {
    if (strict) {
      const result = schema.safeParse(data);
      if (!result.success)
        throw new Error(`An answer does not match the API contract: ${z.prettifyError(result.error)}`);
    }
    return write(data);
  };
}
