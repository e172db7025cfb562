// SPEC §3 Action codes recorded by the identity feature (the wording lives in the web app).
export const ACTION = {
  SIGNIN: 'Signin',
  PASSWORD_RESET: 'AuthPasswordReset',
  PASSWORD_RESET_REQUEST: 'AuthPasswordResetRequest',
} as const;
