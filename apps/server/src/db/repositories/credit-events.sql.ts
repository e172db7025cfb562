// credits.low and credits.exhausted in SQL, emitted by the statements that change a balance (the
// hook's store statement, credits.repository.ts writeCredits), so the event is committed with
// the balance it reports and costs no round trip. The rule is the web app's low-credit banner
// (creditsAlert of @router/shared), told when the balance crosses into it:
//   low: the balance went from above the low mark to at most it (and above 0); the low mark is
//     LOW_CREDITS_SHARE (20 %) of the user's last grant (a free account's 5 sign-up credits: 1;
//     a plan period's: the plan's credits per period, also after a change within the period;
//     once the plan ended, the last grant of another kind, or none);
//   exhausted: the balance went from above 0 to 0;
//   each once per grant (a refund lifting the balance back and the next signal crossing again
//   is not told again).
// Nothing when signals are not metered (SIGNAL_CREDITS=unlimited). The last grant is read only
// for users with an enabled setting.
import { LOW_CREDITS_SHARE } from '@router/shared';
import { grantCreditsSql, lastGrantSql, UNMETERED_SQL } from './credits.repository.ts';

/**
 * A select of notification source rows (see notificationEventCtes) from `changed`, a relation
 * with `user_id, balance_before, balance_after`. `data` is CreditsEventData (`threshold`: the
 * low mark). `grant`: an SQL expression for the credits granted by the change itself (a new
 * plan period), null when it grants none: the statement's own ledger rows are not visible to
 * it, and the low mark is measured against the grant the balance will show afterwards.
 * `periodCredits`: an SQL expression for the account's credits per period after the change,
 * when the change sets them (a plan ending: 0); else as stored.
 *
 * Once per grant: a crossing is not told again when the balance was already at the level since
 * the last grant (the ledger says so). A rejected order's refund lifts the balance back over
 * the mark, and the next signal crosses it again: that is no news.
 */
export function creditEventSource(changed: string, grant = 'null::int', periodCredits?: string): string {
  return `select x.user_id, null::bigint as connector_id, null::text as account_id,
      case when x.balance_after <= 0 then 'credits.exhausted' else 'credits.low' end as type,
      jsonb_build_object('balance', x.balance_after, 'threshold', m.mark) as data
    from ${changed} x
    left join lateral ${lastGrantSql('x.user_id', `${grantCreditsSql(periodCredits)} as credits, g.created_at, g.id`, periodCredits)} g on true
    cross join lateral (
      select floor(coalesce(${grant}, g.credits, 0) * ${LOW_CREDITS_SHARE})::int as mark
    ) m
    where x.balance_after < x.balance_before and not ${UNMETERED_SQL}
      and exists (select 1 from notifications n where n.user_id = x.user_id and n.is_enabled)
      and ((x.balance_before > 0 and x.balance_after <= 0)
        or (x.balance_before > m.mark and x.balance_after > 0 and x.balance_after <= m.mark))
      and (${grant} is not null or not exists (select 1 from credit_ledger l
        where l.user_id = x.user_id
          and (g.id is null or (l.created_at >= g.created_at and (l.created_at > g.created_at or l.id > g.id)))
          and l.balance_after <= case when x.balance_after <= 0 then 0 else m.mark end))`;
}
