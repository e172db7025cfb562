// Trade The Pool has no public order API (broker-specs/tradethepool/WIRE.md): a prop-trading firm
// whose accounts trade only on the platform it provides; automation is allowed only through the
// SignalStack relay. Listed so traders learn why, and what they can do instead.
import { defineUnavailableBroker } from '../../core/unavailable.ts';

export default defineUnavailableBroker({
  name: 'tradethepool',
  title: 'Trade The Pool',
  scale: 1.2,
  help:
    'Trade The Pool offers no order API: its accounts trade only on the platform it provides, and its rules ' +
    'allow automated orders only through SignalStack. To automate a Trade The Pool account, connect it in ' +
    'SignalStack and send your alerts to your SignalStack webhook; Trade The Pool’s rules and limits (such as ' +
    'requests per minute) apply there.',
});
