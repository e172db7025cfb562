// A self-hoster's symbol file (PAPER_SYMBOLS_FILE): read and checked at boot, so a mistake
// stops the start naming the file and line instead of refusing orders later.
import { readFileSync } from 'node:fs';
import { createInstruments } from './instruments.ts';
import { builtInSymbols, type ListedSymbol, parseSymbolList, SymbolListError } from './symbol-list.ts';

export type { ListedSymbol };

/** The file's symbols; throws a SymbolListError saying what is wrong. */
export function readSymbolFile(path: string): ListedSymbol[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new SymbolListError(`${path}: cannot be read (${typeof code === 'string' ? code : 'error'})`);
  }
  const symbols = parseSymbolList(text, path);
  // Pairs must be priceable in USD together with the built-in list.
  createInstruments([...builtInSymbols(), ...symbols]);
  return symbols;
}
