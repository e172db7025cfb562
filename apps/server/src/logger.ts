// pino with secrets redacted: tokens, passwords, credentials and hook keys never reach a log.
import pino, { type Logger, type LoggerOptions } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-user"]',
  '*.password',
  '*.password2',
  '*.passcode',
  '*.token',
  '*.secret',
  '*.credentials',
  '*.accessToken',
  '*.refreshToken',
  '*.shortKey',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
  '*.client_secret',
  '*.code_verifier',
  '*.clientSecret',
  '*.secretHash',
  '*.recoveryCodes',
  'variables.credentials',
  'variables.password',
];

/** `/hook/AbC…` → `/hook/***`: the key is the hook's only secret; so are OAuth codes and tokens. */
export function maskUrl(url: string): string {
  return url
    .replace(/\/hook\/[^/?#]+/, '/hook/***')
    .replace(
      /([?&](?:token|code|access_token|refresh_token|id_token|id_token_hint|client_secret|code_verifier)=)[^&#]*/g,
      '$1***',
    );
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        url: maskUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}

export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}
