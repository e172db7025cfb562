// `accountUpgrade` (SPEC §2 Professional application): the answers of /me/account/upgrade,
// checked with the form's own schema. Professional status (group 16) itself is granted only by
// the Stripe webhook, when the payment for it completes.
import { GROUP, professionalApplicationSchema } from '@router/shared';
import { saveProfessionalApplication } from '../../db/repositories/billing-account.repository.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../graphql/context.ts';
import type { Services } from '../../services.ts';
import { parseInput } from '../auth/caller.ts';

export const ALREADY_PROFESSIONAL = 'You already have professional status';
/** The answers (legal.a–l) are the user's statement: never made by an administrator acting as them. */
export const UPGRADE_OWNER_ONLY =
  'The professional application is a statement of the user: only they can send it, not an administrator acting as them';

export async function applyForProfessional(services: Services, viewer: Viewer, metadata: unknown): Promise<boolean> {
  if ((viewer.group & GROUP.PROFESSIONAL) !== 0) throw new AppError('FORBIDDEN', ALREADY_PROFESSIONAL);
  let value = metadata;
  if (typeof metadata === 'string') {
    try {
      value = JSON.parse(metadata);
    } catch {
      throw new AppError('VALIDATION', 'metadata must be a JSON object', { field: 'metadata' });
    }
  }
  const answers = parseInput(professionalApplicationSchema, value);
  await saveProfessionalApplication(services.db, viewer.userId, answers);
  return true;
}
