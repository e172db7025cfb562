import { describe, expect, it } from 'vitest';
import { GROUP_ADMIN, GROUP_CUSTOMER, GROUP_PROFESSIONAL, groupFlags, hasAnyGroup } from './groups.ts';

describe('group bits (SPEC §6)', () => {
  it('derives flags from the mask', () => {
    expect(groupFlags(0)).toEqual({ isAdmin: false, isCustomer: false, isProfessional: false });
    expect(groupFlags(4)).toEqual({ isAdmin: false, isCustomer: true, isProfessional: false });
    expect(groupFlags(5)).toEqual({ isAdmin: true, isCustomer: true, isProfessional: false });
    expect(groupFlags(20)).toEqual({ isAdmin: false, isCustomer: true, isProfessional: true });
    expect(groupFlags(21)).toEqual({ isAdmin: true, isCustomer: true, isProfessional: true });
    expect(groupFlags(1)).toEqual({ isAdmin: true, isCustomer: false, isProfessional: false });
    expect(groupFlags(null)).toEqual({ isAdmin: false, isCustomer: false, isProfessional: false });
  });

  it('ignores bits that are not roles', () => {
    expect(groupFlags(2 | 8 | 32)).toEqual({ isAdmin: false, isCustomer: false, isProfessional: false });
  });

  it('admits a user holding at least one required bit', () => {
    expect(hasAnyGroup(GROUP_CUSTOMER, [GROUP_ADMIN, GROUP_CUSTOMER])).toBe(true);
    expect(hasAnyGroup(GROUP_PROFESSIONAL, [GROUP_ADMIN, GROUP_CUSTOMER])).toBe(false);
    expect(hasAnyGroup(GROUP_ADMIN, [GROUP_CUSTOMER])).toBe(false);
    expect(hasAnyGroup(GROUP_ADMIN | GROUP_CUSTOMER, [GROUP_ADMIN])).toBe(true);
    expect(hasAnyGroup(GROUP_CUSTOMER, [])).toBe(false);
  });
});
