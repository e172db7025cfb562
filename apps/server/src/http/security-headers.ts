// Security headers on every answer (HTML, API, hook), through @fastify/helmet. The Content
// Security Policy allows our own origin plus exactly the third parties the web app uses:
// Google Identity Services and Sign in with Apple (their scripts load only when configured),
// and Stripe.js with its frames for the card payment form. No inline scripts, no inline
// <style> elements (React's style props are CSSOM, which CSP does not govern).
// First: helmet built once per options object, not per request (helmet-once.ts).
import './helmet-once.ts';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { helmetMiddleware } from './helmet-once.ts';

/** Where the sign-in and payment scripts of the web app come from (features/auth/social-sdk.ts). */
const GOOGLE = { script: 'https://accounts.google.com/gsi/client', rest: 'https://accounts.google.com/gsi/' };
const APPLE_SCRIPT = 'https://appleid.cdn-apple.com';
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://m.stripe.network'],
  api: 'https://api.stripe.com',
  /** Stripe.js's fraud-prevention frame and its requests (Radar). */
  signals: 'https://m.stripe.network',
};

/**
 * What helmet sets that only a document reads (policies of the page, its framing, its opener):
 * the hashed scripts and styles go without them, ~0.8 KB less per file on a first load.
 * nosniff and Cross-Origin-Resource-Policy stay on every answer.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

export function cspDirectives(https: boolean): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'", GOOGLE.script, APPLE_SCRIPT, ...STRIPE.script],
    'script-src-attr': ["'none'"],
    // Google's button stylesheet; Bootstrap's icons are data: SVGs in our CSS.
    'style-src': ["'self'", 'https://accounts.google.com/gsi/style'],
    'img-src': ["'self'", 'data:', 'https://*.stripe.com'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", GOOGLE.rest, STRIPE.api, STRIPE.signals],
    'frame-src': [GOOGLE.rest, ...STRIPE.frame],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    // form-action is left open: the OAuth consent form posts to us and is then redirected to the
    // third-party app's registered redirect URI, which Chromium checks against form-action.
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Helmet's options for every answer (the hook's headers are made from the same, securityHeaders). */
function helmetOptions(publicUrl: string): FastifyHelmetOptions {
  const https = publicUrl.startsWith('https:');
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(https) },
    // Popups we open (broker authorization, Apple, Google) keep their opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // Google Identity Services needs the origin as referrer; paths and queries never leave.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  };
}

export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(helmet, helmetOptions(publicUrl));
}

/**
 * The headers helmet sets on an answer, as [lower-case name, value] in helmet's order, made once:
 * with no CSP nonces they depend on the options only. A route that sends them itself (the hook,
 * `helmet: false`) spares each answer helmet's middleware and the response's own header list
 * (~4 KB of garbage per signal, bench/alloc.ts).
 */
export function securityHeaders(publicUrl: string): ReadonlyArray<readonly [string, string]> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmetMiddleware(helmetOptions(publicUrl))({}, res, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
}
