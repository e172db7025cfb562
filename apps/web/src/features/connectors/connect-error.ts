import { errorMessage } from '../../lib/error-message.ts';
import { CONNECT_ERROR_FALLBACK } from './constants.ts';

/** SPEC §8: a connect failure shows the first server error message, else 'Error...'. */
export const connectErrorMessage = (error: unknown): string => errorMessage(error, CONNECT_ERROR_FALLBACK);
