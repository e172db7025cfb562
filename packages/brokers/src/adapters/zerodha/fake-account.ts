// The account behind the Kite fake: cash, net positions by product, delivery holdings, and the
// fills that move them. Shapes as Kite answers GET /user/margins, /portfolio/positions and
// /portfolio/holdings (the kiteconnect-mocks margins.json and positions.json).
export interface FakePosition {
  exchange: string;
  tradingsymbol: string;
  token: number;
  product: string;
  quantity: number;
  buyQuantity: number;
  buyValue: number;
  sellQuantity: number;
  sellValue: number;
  lastPrice: number;
}

export interface FakeHolding {
  exchange: string;
  tradingsymbol: string;
  token: number;
  quantity: number;
  t1Quantity: number;
  usedQuantity: number;
  averagePrice: number;
  lastPrice: number;
}

export interface Fill {
  exchange: string;
  tradingsymbol: string;
  token: number;
  product: string;
  side: string;
  quantity: number;
  price: number;
}

/** Share of an order's value blocked as margin, by product. */
const MARGIN_RATE: Record<string, number> = { CNC: 1, MTF: 0.5, MIS: 0.2, NRML: 0.15, CO: 0.1 };

export function createFakeAccount(options: { cash: number; holdings?: FakeHolding[] }) {
  let cash = options.cash;
  let used = 0;
  const positions = new Map<string, FakePosition>();
  const holdings = options.holdings ?? [];

  const positionOf = (exchange: string, tradingsymbol: string, product: string, token: number) => {
    const key = `${exchange}:${tradingsymbol}:${product}`;
    const known = positions.get(key);
    if (known) return known;
    const position: FakePosition = {
      exchange,
      tradingsymbol,
      token,
      product,
      quantity: 0,
      buyQuantity: 0,
      buyValue: 0,
      sellQuantity: 0,
      sellValue: 0,
      lastPrice: 0,
    };
    positions.set(key, position);
    return position;
  };

  const holdingOf = (exchange: string, tradingsymbol: string) =>
    holdings.find((item) => item.exchange === exchange && item.tradingsymbol === tradingsymbol);

  return {
    available: () => cash - used,
    margin: (product: string, value: number) => value * (MARGIN_RATE[product] ?? 1),
    /** Delivery shares that may be sold: holdings plus (or minus) today's CNC trades. */
    deliverable(exchange: string, tradingsymbol: string): number {
      const holding = holdingOf(exchange, tradingsymbol);
      const today = positions.get(`${exchange}:${tradingsymbol}:CNC`)?.quantity ?? 0;
      return (holding ? holding.quantity + holding.t1Quantity : 0) + today;
    },
    /** Blocks margin for an order RMS passed; returns what was blocked. */
    block(amount: number): number {
      used += amount;
      return amount;
    },
    release(amount: number) {
      used -= amount;
    },
    /** A fill; `blocked` is what its order held (delivery pays cash instead of margin). */
    fill(fill: Fill, blocked: number) {
      const position = positionOf(fill.exchange, fill.tradingsymbol, fill.product, fill.token);
      const value = fill.quantity * fill.price;
      if (fill.side === 'BUY') {
        position.quantity += fill.quantity;
        position.buyQuantity += fill.quantity;
        position.buyValue += value;
      } else {
        position.quantity -= fill.quantity;
        position.sellQuantity += fill.quantity;
        position.sellValue += value;
        const holding = fill.product === 'CNC' ? holdingOf(fill.exchange, fill.tradingsymbol) : undefined;
        if (holding) holding.usedQuantity += fill.quantity;
      }
      position.lastPrice = fill.price;
      if (fill.product === 'CNC') {
        used -= blocked;
        cash += fill.side === 'BUY' ? -value : value;
      }
    },
    margins() {
      const segment = (net: number) => ({
        enabled: true,
        net,
        available: {
          adhoc_margin: 0,
          cash,
          opening_balance: options.cash,
          live_balance: net,
          collateral: 0,
          intraday_payin: 0,
        },
        utilised: {
          debits: used,
          exposure: 0,
          m2m_realised: 0,
          m2m_unrealised: 0,
          option_premium: 0,
          payout: 0,
          span: used,
          holding_sales: 0,
          turnover: 0,
          liquid_collateral: 0,
          stock_collateral: 0,
          delivery: 0,
        },
      });
      return { equity: segment(cash - used), commodity: segment(cash - used) };
    },
    positions() {
      const net = [...positions.values()].map((p) => {
        const average =
          p.quantity > 0 ? p.buyValue / (p.buyQuantity || 1) : p.quantity < 0 ? p.sellValue / (p.sellQuantity || 1) : 0;
        return {
          tradingsymbol: p.tradingsymbol,
          exchange: p.exchange,
          instrument_token: p.token,
          product: p.product,
          quantity: p.quantity,
          overnight_quantity: 0,
          multiplier: 1,
          average_price: average,
          close_price: 0,
          last_price: p.lastPrice,
          value: p.sellValue - p.buyValue,
          pnl: p.sellValue - p.buyValue + p.quantity * p.lastPrice,
          m2m: 0,
          unrealised: 0,
          realised: 0,
          buy_quantity: p.buyQuantity,
          buy_price: p.buyQuantity ? p.buyValue / p.buyQuantity : 0,
          buy_value: p.buyValue,
          buy_m2m: p.buyValue,
          sell_quantity: p.sellQuantity,
          sell_price: p.sellQuantity ? p.sellValue / p.sellQuantity : 0,
          sell_value: p.sellValue,
          sell_m2m: p.sellValue,
          day_buy_quantity: p.buyQuantity,
          day_buy_price: p.buyQuantity ? p.buyValue / p.buyQuantity : 0,
          day_buy_value: p.buyValue,
          day_sell_quantity: p.sellQuantity,
          day_sell_price: p.sellQuantity ? p.sellValue / p.sellQuantity : 0,
          day_sell_value: p.sellValue,
        };
      });
      return { net, day: net };
    },
    holdings: () =>
      holdings.map((h) => ({
        tradingsymbol: h.tradingsymbol,
        exchange: h.exchange,
        instrument_token: h.token,
        isin: 'INE009A01021',
        product: 'CNC',
        price: 0,
        quantity: h.quantity,
        used_quantity: h.usedQuantity,
        t1_quantity: h.t1Quantity,
        realised_quantity: h.quantity,
        authorised_quantity: 0,
        authorised_date: '2026-01-01 00:00:00',
        opening_quantity: h.quantity,
        collateral_quantity: 0,
        collateral_type: '',
        discrepancy: false,
        average_price: h.averagePrice,
        last_price: h.lastPrice,
        close_price: h.lastPrice,
        pnl: (h.lastPrice - h.averagePrice) * h.quantity,
        day_change: 0,
        day_change_percentage: 0,
      })),
  };
}

export type FakeAccount = ReturnType<typeof createFakeAccount>;
