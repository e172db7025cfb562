import { describe, expect, it } from 'vitest';
import { referrerCreateSchema } from './index.ts';

describe('referrer campaign form (SPEC §5)', () => {
  it("asks for a name without a brokerage on the same submit as the credits' error", () => {
    const fields = (credits: number | undefined) =>
      referrerCreateSchema
        .safeParse({ name: '', providerName: '', credits })
        .error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    const name = 'name: Required, if brokerage is not selected';
    // The Credits field emptied (the form sends undefined), or not a number.
    expect(fields(undefined)).toEqual(['credits: Required', name]);
    expect(fields(0)).toEqual(['credits: Must be greater than 0', name]);
  });

  it('takes a brokerage without a name, and a name without a brokerage', () => {
    expect(referrerCreateSchema.parse({ name: '', providerName: 'paper', credits: 100 })).toEqual({
      name: undefined,
      providerName: 'paper',
      credits: 100,
    });
    expect(referrerCreateSchema.parse({ name: 'Spring 25', providerName: '', credits: 5 }).name).toBe('Spring 25');
  });
});
