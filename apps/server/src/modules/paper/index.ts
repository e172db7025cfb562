export { createPostgresPaperStore } from './store.ts';
