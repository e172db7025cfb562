// credits.low and credits.exhausted in SQL, emitted by the statements that change a balance (the
// hook's store statement, credits.repository.ts writeCredits), so the event is committed with
// the balance it reports and costs no round trip. One rule for both:
//   low: the balance went from above the low mark to at most it (and above 0); the low mark is
//     10 % of the plan period's credits, at least 3 (a free account's 5 sign-up credits warn at 3);
//   exhausted: the balance went from above 0 to 0.
// Nothing when signals are not metered (SIGNAL_CREDITS=unlimited).
import { UNMETERED_SQL } from './credits.repository.ts';

export const CREDITS_LOW_MIN = 3;
export const CREDITS_LOW_SHARE = 0.1;

/** The low mark of an account whose plan period grants `periodCredits` (SQL expression). */
const lowMark = (periodCredits: string) =>
  `greatest(${CREDITS_LOW_MIN}, ceil(${periodCredits} * ${CREDITS_LOW_SHARE})::int)`;

/**
 * A select of notification source rows (see notificationEventCtes) from `changed`, a relation
 * with `user_id, balance_before, balance_after, period_credits`. `data` is CreditsEventData.
 */
export function creditEventSource(changed: string): string {
  return `select x.user_id, null::bigint as connector_id, null::text as account_id,
      case when x.balance_after = 0 then 'credits.exhausted' else 'credits.low' end as type,
      jsonb_build_object('balance', x.balance_after, 'threshold', ${lowMark('x.period_credits')}) as data
    from ${changed} x
    where not ${UNMETERED_SQL}
      and ((x.balance_before > 0 and x.balance_after = 0)
        or (x.balance_before > ${lowMark('x.period_credits')} and x.balance_after > 0
          and x.balance_after <= ${lowMark('x.period_credits')}))`;
}
