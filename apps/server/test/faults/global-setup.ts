// One initialized and migrated DATA_DIR for the whole faults run: each drill starts its server on
// a copy (`cp -a`, ownership kept for the embedded PostgreSQL's user), saving an initdb per file.
import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { freshDataDir, removeDataDir, startLiveServer } from './live-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    faultsTemplateDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = freshDataDir('router-faults-template-');
  const server = await startLiveServer({}, dir, 120_000);
  await server.stop();
  project.provide('faultsTemplateDir', dir);
  return async () => {
    await removeDataDir(dir);
  };
}

/** A fresh DATA_DIR copied from the template. */
export function copyTemplate(template: string): string {
  const dir = freshDataDir();
  execFileSync('cp', ['-a', `${template}/.`, dir]);
  return dir;
}
