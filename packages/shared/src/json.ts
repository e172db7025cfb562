// A JSON object (not null, not an array): what stored metadata and parsed bodies are checked with.

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
