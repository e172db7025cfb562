import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { AnyVariables, UseQueryState } from 'urql';
import type { AccountCreditsQuery } from '../../gql/graphql.ts';
import { formatCount, formatDate } from '../../lib/format.ts';
import { Tile, tileState } from '../dashboard/tile.tsx';
import { signalsLeft } from '../dashboard/tile-values.ts';
import { UNLIMITED } from './texts.ts';

type Account = AccountCreditsQuery['account'];

/** Where the signals left come from: the plan's period credits (spent first) and one-time credits. */
export function creditsBreakdown(account: Account): string {
  if (account.unlimited) return 'Signals are not metered on this server';
  if (account.recurringPeriodCredits === 0) return 'One-time credits; they never expire';
  const until = account.recurringPeriodEnd ? ` until ${formatDate(account.recurringPeriodEnd * 1000)}` : '';
  return `${formatCount(account.recurringCredits)} plan credits${until}, ${formatCount(account.credits)} one-time`;
}

/** SPEC §2 Account & Billing: signals left and signals spent in total. */
export function AccountSummary({ account }: { account: UseQueryState<AccountCreditsQuery, AnyVariables> }) {
  const data = account.data?.account;
  return (
    <Row xs={1} md={2} className="g-3 mb-4">
      <Col>
        <Tile
          title="Signals left"
          testId="account-balance"
          {...(data ? { hint: creditsBreakdown(data) } : {})}
          state={tileState(account, ({ account: a }) =>
            a.unlimited ? UNLIMITED : formatCount(signalsLeft(a.balance)),
          )}
        />
      </Col>
      <Col>
        <Tile
          title="Signals spent in total"
          testId="account-spent"
          hint="live signals whose order went through"
          state={tileState(account, ({ account: a }) => (a.unlimited ? '–' : formatCount(a.signalsSpent)))}
        />
      </Col>
    </Row>
  );
}
