// The deposit currency's name from ProtoOAAssetListRes's list (WIRE.md §3, ProtoOAAsset).
import { describe, expect, it } from 'vitest';
import { FAKE_ASSETS } from './fake-book.ts';
import { assetName } from './holdings.ts';

describe('assetName', () => {
  it("names the trader's deposit asset, and nothing for an asset the list lacks", () => {
    expect(assetName(FAKE_ASSETS, 2)).toBe('EUR');
    expect(assetName(FAKE_ASSETS, 99)).toBeUndefined();
    expect(assetName(FAKE_ASSETS, undefined)).toBeUndefined();
    expect(assetName(undefined, 1)).toBeUndefined();
  });
});
