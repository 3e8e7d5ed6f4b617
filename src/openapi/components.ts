/**
 * `components.schemas`: the manifest's `schema "<name>"` blocks that the document uses, referenced as
 * `#/components/schemas/<name>` wherever they appear, and the problem schemas svc itself answers
 * with. Only what is referenced is emitted, in name order.
 */
import type { FieldSpec, ObjectTypeSpec, TypeSpec } from '../model/index.js';
import { toJsonSchema, type JsonSchema } from '../schema/index.js';

/** The problem-details record of SPEC.md §2.6 (extension members such as `step` are allowed). */
const PROBLEM: JsonSchema = {
  type: 'object',
  description: 'A problem-details record (RFC 9457).',
  properties: {
    type: { type: 'string', description: 'urn:svc:error:<kind>', examples: ['urn:svc:error:not-found'] },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'The request path.' },
  },
  required: ['type', 'title', 'status'],
};

/** The 422 body: a problem that lists every failed constraint (SPEC.md §7, DECISIONS.md §3). */
function validationProblem(): JsonSchema {
  return {
    type: 'object',
    description: 'The request failed validation: every failed constraint is listed in invalid_params.',
    properties: {
      ...(PROBLEM.properties as JsonSchema),
      invalid_params: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'The field, nested body fields with dots and indexes (address.city, tags[2]).' },
            reason: { type: 'string', examples: ['is required', 'must be a valid email format'] },
            in: { type: 'string', enum: ['path', 'query', 'header', 'body'] },
          },
          required: ['name', 'reason', 'in'],
        },
      },
    },
    required: ['type', 'title', 'status', 'invalid_params'],
  };
}

export class Components {
  /** Component name of each named object met so far, in the order met. */
  private readonly names = new Map<ObjectTypeSpec, string>();
  private readonly taken = new Set<string>();
  private problemName: string | undefined;
  private validationName: string | undefined;

  constructor(declared: ReadonlyMap<string, ObjectTypeSpec>) {
    // Declared names are reserved first, so svc's own schemas never take a name the manifest uses.
    for (const name of declared.keys()) this.taken.add(componentName(name));
  }

  /** The JSON Schema of a field (its type and every attribute), named objects as `$ref`s. */
  field(field: FieldSpec): JsonSchema {
    return toJsonSchema(field, { ref: (o) => this.refTo(o) });
  }

  /** The JSON Schema of a type; a named object is a `$ref` even at the top. */
  type(type: TypeSpec): JsonSchema {
    if (type.kind === 'object' && type.name !== undefined) return { $ref: this.refTo(type) };
    return toJsonSchema(type, { ref: (o) => this.refTo(o) });
  }

  problem(): JsonSchema {
    this.problemName ??= this.reserve('Problem');
    return { $ref: `#/components/schemas/${this.problemName}` };
  }

  validationProblem(): JsonSchema {
    this.validationName ??= this.reserve('ValidationProblem');
    return { $ref: `#/components/schemas/${this.validationName}` };
  }

  /** Every referenced schema, by name; emitting one may reference more, which are emitted too. */
  schemas(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    const done = new Set<ObjectTypeSpec>();
    for (let again = true; again; ) {
      again = false;
      for (const [object, name] of [...this.names]) {
        if (done.has(object)) continue;
        done.add(object);
        again = true;
        out[name] = toJsonSchema(object, { ref: (o) => this.refTo(o) });
      }
    }
    if (this.problemName !== undefined) out[this.problemName] = PROBLEM;
    if (this.validationName !== undefined) out[this.validationName] = validationProblem();
    return Object.fromEntries(
      Object.keys(out)
        .sort()
        .map((k) => [k, out[k]!]),
    );
  }

  private refTo(object: ObjectTypeSpec): string {
    let name = this.names.get(object);
    if (name === undefined) {
      name = componentName(object.name ?? 'object');
      this.names.set(object, name);
    }
    return `#/components/schemas/${name}`;
  }

  private reserve(base: string): string {
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }
}

/** OpenAPI component keys match ^[a-zA-Z0-9.\-_]+$. */
function componentName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}
