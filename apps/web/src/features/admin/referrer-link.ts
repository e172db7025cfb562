/** SPEC §2: the referrer link is the sign-up path, '/', and the campaign's code. */
export const SIGNUP_PATH = '/signup';

export const referrerLink = (code: string, origin: string = window.location.origin): string =>
  `${origin}${SIGNUP_PATH}/${code}`;
