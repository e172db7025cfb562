// Checks real answers against the served OpenAPI document: the operation must declare the status,
// and the body must validate (JSON Schema 2020-12, as OpenAPI 3.1 defines) against its schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; headers?: Record<string, unknown> };
}

export class Contract {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #doc: OpenApiDocument;
  /** `METHOD path status` of every answer checked. */
  readonly seen = new Set<string>();

  constructor(doc: OpenApiDocument) {
    this.#doc = doc;
    addFormats.default(this.#ajv);
    // The document is one schema resource: its "#/components/schemas/…" references resolve in it.
    this.#ajv.addSchema({ $id: 'https://api.test/openapi.json', components: doc.components });
  }

  /** Throws unless the document declares `status` for the operation and `body` fits its schema. */
  check(method: string, path: string, status: number, body: unknown): void {
    const operation = this.#doc.paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${method} ${path} is not in the document`);
    const response = operation.responses?.[String(status)];
    if (!response) throw new Error(`${method} ${path} answered ${status}, which the document does not declare`);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method} ${path} ${status} has no JSON schema`);
    const validate = this.#ajv.compile({ $ref: `https://api.test/openapi.json${refOf(schema)}` });
    if (!validate(body)) {
      throw new Error(`${method} ${path} ${status}: ${this.#ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
    }
    this.seen.add(`${method.toUpperCase()} ${path} ${status}`);
  }
}

/** A response schema is a $ref to a component (every API answer has a registry id). */
function refOf(schema: unknown): string {
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/'))
    throw new Error(`not a component reference: ${JSON.stringify(schema)}`);
  return ref;
}
