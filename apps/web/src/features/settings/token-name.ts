/** A token's name lives in its metadata (`{name}`); tokens made elsewhere may have none. */
export function tokenName(metadata: unknown): string {
  const name = (metadata as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() ? name : 'Unnamed token';
}

/** The metadata with a new name, other fields kept. */
export function renamed(metadata: unknown, name: string): Record<string, unknown> {
  const base = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
  return { ...base, name };
}
