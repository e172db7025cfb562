// The playground's lenient reading of order text (SPEC §5): strict JSON first, then repaired by
// jsonrepair, which fixes what people type by hand:
//   {symbol: 'AAPL', action: "buy", quantity: 1, /* test */ limit: True,}
// When repair fails too, its message is shown as is: "Unexpected end of json string at position 12"
// (positions are 0-based character offsets, as in expression errors).
import { JSONRepairError, jsonrepair } from 'jsonrepair';
import { duplicateKey } from '../order/body.ts';

export type OrderTextResult = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

export function parseOrderText(text: string): OrderTextResult {
  try {
    return parsed(text, false);
  } catch {
    // Not strict JSON: fall through to the repair.
  }
  try {
    return parsed(jsonrepair(text), true);
  } catch (error) {
    if (error instanceof JSONRepairError) return { ok: false, error: error.message };
    return { ok: false, error: error instanceof Error ? error.message : 'Invalid JSON' };
  }
}

/** Parsed JSON, or a key given twice: the hook refuses that text, so the playground does too. */
function parsed(json: string, repaired: boolean): OrderTextResult {
  const value: unknown = JSON.parse(json);
  const twice = duplicateKey(json);
  return twice === undefined ? { ok: true, value, repaired } : { ok: false, error: `${twice}: given twice` };
}
