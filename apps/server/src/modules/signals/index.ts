// Signals: the one path every signal takes (submitSignal), its runtime, and the playground's
// preview. A signal's states and moves: lifecycle.ts.
export { isPendingBody, NOT_FOUND, POST_ONLY, TOO_LARGE, TOO_MANY, UNAVAILABLE } from './answers.ts';
export { previewOrder } from './preview.ts';
export { refusalEvent } from './refusal-event.ts';
export { createSignalRuntime, type SignalRuntime } from './runtime.ts';
export { type SignalInput, type Submitted, submitSignal } from './submit.ts';
