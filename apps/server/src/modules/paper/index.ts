export {
  getPaperAccount,
  PAPER_ACCOUNT_NOT_FOUND,
  type PaperAccountResult,
  resetPaperAccount,
} from './account.ts';
export { createPostgresPaperStore } from './store.ts';
