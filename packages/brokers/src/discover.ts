// The brokers are the folders of adapters/: each `<name>/index.ts` default-exports
// defineBroker({ descriptor, create }). They are found when this package loads, so adding a
// broker is adding a folder: no list to edit, no generated file to merge (docs/ARCHITECTURE.md).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BrokerModule, isBrokerModule } from './core/define.ts';
import type { StartProtocolFake } from './core/protocol-fake.ts';

export const ADAPTERS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'adapters');

/** Folders of adapters/ holding a broker (an index.ts), by name. */
export function brokerFolders(): string[] {
  return readdirSync(ADAPTERS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(ADAPTERS_DIR, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
}

/** A folder's file as an import URL (tests load a folder's fake the same way). */
function brokerFile(folder: string, file: string): string {
  return pathToFileURL(path.join(ADAPTERS_DIR, folder, file)).href;
}

async function load(folder: string): Promise<BrokerModule> {
  const loaded = (await import(brokerFile(folder, 'index.ts'))) as { default?: unknown };
  if (!isBrokerModule(loaded.default))
    throw new Error(`adapters/${folder}/index.ts must default-export defineBroker({ descriptor, create })`);
  if (loaded.default.descriptor.name !== folder)
    throw new Error(
      `adapters/${folder}: the descriptor's name is "${loaded.default.descriptor.name}", not "${folder}"`,
    );
  return loaded.default;
}

function discoverBrokers(): Promise<BrokerModule[]> {
  return Promise.all(brokerFolders().map(load));
}

/** Tests: the folder's protocol fake (`startProtocolFake` in fake.ts), if it has one. */
export async function loadProtocolFake(folder: string): Promise<StartProtocolFake | undefined> {
  if (!existsSync(path.join(ADAPTERS_DIR, folder, 'fake.ts'))) return undefined;
  const loaded = (await import(brokerFile(folder, 'fake.ts'))) as { startProtocolFake?: unknown };
  if (typeof loaded.startProtocolFake !== 'function')
    throw new Error(`adapters/${folder}/fake.ts must export startProtocolFake (core/protocol-fake.ts)`);
  return loaded.startProtocolFake as StartProtocolFake;
}

/** Every broker of this package, by name. */
export const brokerModules: readonly BrokerModule[] = Object.freeze(await discoverBrokers());
