// The sign-in form's validation, loaded on first use (lib/lazy-resolver.ts): it brings zod.
import { zodResolver } from '@hookform/resolvers/zod';
import { signinSchema } from '@router/shared';

export const signinResolver = zodResolver(signinSchema);
