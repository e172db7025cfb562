// Loaded before main.ts with `node --import` (see node-args.ts). Plain JavaScript, so running it
// does not need Node's TypeScript stripper. Two savings at module loading, neither changing
// which code runs (measured in docs/ARCHITECTURE.md, "Memory"):
//
// 1. Node's compile cache, in node_modules/.cache: a later start reads the type-stripped source
//    and V8's code cache of each module instead of loading the stripper (swc built to
//    WebAssembly, ~20 MB that stay in memory) and compiling again. Entries are keyed by the
//    file's content, so an edited file is stripped anew; a cache that cannot be written is skipped.
// 2. drizzle-orm's package.json is 179 KB, almost all of it "exports". Node 24 reads that field
//    again (a new string and a JSON.parse) for each module it loads from the package, to learn
//    its format: ~110 modules, ~120 MB of garbage and ~0.5 s of CPU at every start. Relative `.js`
//    imports between drizzle-orm's own ES modules ("type": "module") resolve here to the same URL
//    and format Node would find, without that look-up.
import module from 'node:module';
import path from 'node:path';

module.enableCompileCache(path.resolve(import.meta.dirname, '../../../node_modules/.cache/node-compile-cache'));

const drizzle = new URL('.', import.meta.resolve('drizzle-orm')).href;

module.registerHooks({
  resolve(specifier, context, nextResolve) {
    if (
      context.parentURL?.startsWith(drizzle) &&
      context.conditions.includes('import') &&
      specifier.startsWith('.') &&
      specifier.endsWith('.js')
    ) {
      return { url: new URL(specifier, context.parentURL).href, format: 'module', shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});
