// A react-hook-form resolver loaded on first use instead of with its screen: a zod schema brings
// zod (~23 KB compressed), which the sign-in page's first load can do without (bench/, "first
// load"). `preload` starts the download early, e.g. when the form gets focus; a failed download
// is tried again on the next validation.
import type { FieldValues, Resolver } from 'react-hook-form';

export function lazyResolver<TFields extends FieldValues, TValues>(
  load: () => Promise<Resolver<TFields, unknown, TValues>>,
): { resolver: Resolver<TFields, unknown, TValues>; preload: () => void } {
  let loading: Promise<Resolver<TFields, unknown, TValues>> | undefined;
  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: () => {
      get().catch(() => {});
    },
  };
}
