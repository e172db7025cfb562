// Minimum price increments of futures roots (the exchange's contract specs), for the adapters
// that name a contract by its root and must put prices on its tick (Rithmic, Tradovate).

const TICKS: Readonly<Record<string, number>> = {
  ES: 0.25,
  MES: 0.25,
  NQ: 0.25,
  MNQ: 0.25,
  RTY: 0.1,
  M2K: 0.1,
  YM: 1,
  MYM: 1,
  ZB: 1 / 32,
  ZN: 1 / 64,
  CL: 0.01,
  MCL: 0.01,
  NG: 0.001,
  GC: 0.1,
  MGC: 0.1,
  SI: 0.005,
  '6E': 0.00005,
};

/** The root's tick, where it is known; undefined for other roots (their prices go as given). */
export const futureTickOf = (root: string): number | undefined => TICKS[root];
