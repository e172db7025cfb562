// API secret tokens (SPEC §3 UserToken): the name a person gives a token, kept in its metadata.
import { z } from 'zod';
import { MESSAGES } from './auth.ts';

export const USER_TOKEN_NAME_MAX = 64;

export const userTokenNameSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(USER_TOKEN_NAME_MAX, `At most ${USER_TOKEN_NAME_MAX} characters`);

/** The create and rename forms; `metadata` of userTokenCreate/userTokenUpdate is `{name}`. */
export const userTokenFormSchema = z.object({ name: userTokenNameSchema });

export type UserTokenForm = z.infer<typeof userTokenFormSchema>;
