import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.ts';

describe('GroupCommit', () => {
  it('writes a lone call at once and the calls arriving meanwhile as the next batch', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batcher = new GroupCommit(async (inputs: number[]) => {
      batches.push(inputs);
      if (batches.length === 1) await gate;
      return inputs.map((n) => n * 10);
    }, 100);
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3, 4].map((n) => batcher.submit(n));
    release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('caps a batch at its maximum', async () => {
    const sizes: number[] = [];
    const batcher = new GroupCommit(async (inputs: number[]) => {
      sizes.push(inputs.length);
      return inputs;
    }, 3);
    await Promise.all(Array.from({ length: 7 }, (_, i) => batcher.submit(i)));
    expect(sizes).toEqual([3, 3, 1]);
  });

  it('writes a failed batch again one by one, so only the bad input fails', async () => {
    const batcher = new GroupCommit(async (inputs: string[]) => {
      if (inputs.includes('bad')) throw new Error(`refused ${inputs.length}`);
      return inputs.map((s) => s.toUpperCase());
    }, 10);
    const settled = await Promise.allSettled(['a', 'bad', 'b'].map((s) => batcher.submit(s)));
    expect(settled).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('refused 1') },
      { status: 'fulfilled', value: 'B' },
    ]);
  });

  it('fails every caller when the write answers for fewer inputs than it got', async () => {
    const batcher = new GroupCommit(async (inputs: number[]) => inputs.slice(1), 10);
    const settled = await Promise.allSettled([1, 2].map((n) => batcher.submit(n)));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
  });

  it('lingers when asked: calls within the linger share one write', async () => {
    const sizes: number[] = [];
    const batcher = new GroupCommit(
      async (inputs: number[]) => {
        sizes.push(inputs.length);
        return inputs;
      },
      100,
      30,
    );
    const first = batcher.submit(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = batcher.submit(2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(sizes).toEqual([2]);
  });
});
