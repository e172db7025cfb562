// Lightspeed has no public network order API (broker-specs/lightspeed/WIRE.md): its Trader API
// is a C++ plug-in that runs inside Lightspeed Trader on the user's Windows PC, and its
// Gateway / Black Box kit is documented only under agreement. Listed so traders learn why.
import { defineUnavailableBroker } from '../../core/unavailable.ts';

export default defineUnavailableBroker({
  name: 'lightspeed',
  title: 'Lightspeed',
  scale: 1.3,
  help:
    'Lightspeed publishes no order API that a web service can call: its trading API is a plug-in that runs ' +
    'inside Lightspeed Trader on your own Windows PC, and its institutional gateway is private. To turn alerts ' +
    'into orders automatically, connect a broker with an order API instead, such as Schwab, Tradier or tastytrade.',
});
