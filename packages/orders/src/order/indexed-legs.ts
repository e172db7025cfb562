// Multi-leg orders may come as indexed parameters instead of a legs array, e.g. an iron condor:
//   {"symbol": "SPY 271217P00550000", "action": "buy_to_open",
//    "symbol[2]": "SPY 271217P00560000", "action[2]": "sell_to_open", ...,
//    "quantity": 1, "type": "limit", "limit_price": -1.25}
// Leg 1 is `symbol[1]` or the unindexed `symbol` (likewise action); unindexed quantity and class
// stay on top as defaults for every leg; unindexed type and limit_price are the order's (the net
// price of a combo). The result has a `legs` array, so one code path normalizes both forms.
import { OrderValidationError } from '../errors.ts';
import type { Fields } from './body.ts';
import { LEG_FIELDS, MAX_LEGS } from './raw-schema.ts';

const INDEXED = /^([a-z_]+)\[(\d{1,3})\]$/;

/** How a leg's field was written, for error messages: `symbol[2]`, `action`, `legs[1].quantity`. */
export type LegFieldName = (leg: number, field: string) => string;

export interface ExpandedBody {
  body: Fields;
  legFieldName: LegFieldName;
}

const arrayName: LegFieldName = (leg, field) => `legs[${leg}].${field}`;

export function expandIndexedLegs(input: Fields): ExpandedBody {
  const legs: Fields[] = [];
  const names = new Map<string, string>();
  const body: Fields = {};
  for (const key of Object.keys(input)) {
    const match = INDEXED.exec(key);
    if (!match) {
      body[key] = input[key];
      continue;
    }
    const [, field = '', digits = ''] = match;
    const index = Number(digits);
    if (!(LEG_FIELDS as string[]).includes(field)) {
      const allowed = LEG_FIELDS.map((name) => `${name}[n]`).join(', ');
      throw new OrderValidationError(key, `${key}: unknown field (indexed fields are ${allowed})`);
    }
    if (index < 1 || index > MAX_LEGS) {
      throw new OrderValidationError(key, `${key}: leg numbers go from 1 to ${MAX_LEGS}`);
    }
    const leg = legs[index - 1] ?? {};
    legs[index - 1] = leg;
    // symbol[2] and symbol[02] are one field: the later must not silently replace the earlier.
    const earlier = names.get(`${index - 1}.${field}`);
    if (earlier !== undefined) {
      throw new OrderValidationError(key, `${key}: given twice, as ${earlier} and ${key}`);
    }
    leg[field] = input[key];
    names.set(`${index - 1}.${field}`, key);
  }
  if (legs.length === 0) return { body: input, legFieldName: arrayName };
  if (body.legs !== undefined) {
    throw new OrderValidationError(
      'legs',
      'legs: give either a legs array or indexed fields such as symbol[2], not both',
    );
  }
  const first = legs[0] ?? {};
  legs[0] = first;
  for (const field of ['symbol', 'action'] as const) {
    if (body[field] === undefined) continue;
    if (first[field] !== undefined) {
      throw new OrderValidationError(`${field}[1]`, `${field}[1]: given twice, as ${field} and ${field}[1]`);
    }
    first[field] = body[field];
    names.set(`0.${field}`, field);
    delete body[field];
  }
  // Holes (symbol[3] without symbol[2]) become empty legs, refused later as `symbol[2]: required`.
  body.legs = Array.from(legs, (leg) => leg ?? {});
  return { body, legFieldName: (leg, field) => names.get(`${leg}.${field}`) ?? `${field}[${leg + 1}]` };
}
