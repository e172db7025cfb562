// `npm run schema:print`: writes apps/server/schema.graphql, which the web app's codegen reads.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printedSchema } from '../src/graphql/schema.ts';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../schema.graphql');
fs.writeFileSync(file, printedSchema());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
