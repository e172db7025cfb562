// The zxcvbn estimate in its own thread (password-strength.ts): building the ranked dictionaries
// takes ~0.4 s of CPU and ~35 MB, which on the main thread stalled every hook for that long on
// the first estimate after a start and kept the memory for the life of the process.
import { parentPort } from 'node:worker_threads';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...english.dictionary },
  graphs: common.adjacencyGraphs,
  translations: english.translations,
});

parentPort?.on('message', ({ id, password }: { id: number; password: string }) => {
  parentPort?.postMessage({ id, guessesLog10: zxcvbn.check(password).guessesLog10 });
});
