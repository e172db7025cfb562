// SPEC §6/§9: a user's group is a bit mask (the bits: @router/shared's GROUP, from its zod-free
// entry: the router imports this in the first load).
import { GROUP } from '@router/shared/groups';

export const GROUP_ADMIN = GROUP.ADMIN;
export const GROUP_CUSTOMER = GROUP.CUSTOMER;
export const GROUP_PROFESSIONAL = GROUP.PROFESSIONAL;

export interface GroupFlags {
  isAdmin: boolean;
  isCustomer: boolean;
  isProfessional: boolean;
}

/** True when `group` holds at least one of the `required` bits (a guarded route's rule). */
export function hasAnyGroup(group: number, required: readonly number[]): boolean {
  return required.some((bit) => (group & bit) === bit);
}

export function groupFlags(group: number | null | undefined): GroupFlags {
  const value = group ?? 0;
  return {
    isAdmin: hasAnyGroup(value, [GROUP_ADMIN]),
    isCustomer: hasAnyGroup(value, [GROUP_CUSTOMER]),
    isProfessional: hasAnyGroup(value, [GROUP_PROFESSIONAL]),
  };
}
