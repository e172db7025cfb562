// The signal path's notification events in SQL, for the statements that change a signal's
// status (outcomes, reconciliation, paper fills): emitted by those statements themselves, so an
// event exists exactly when its change was committed, at no extra round trip. Users without an
// enabled setting cost one index probe per row (notifications_user_idx) and build no JSON.

/** Durations whose order ends at once, what did not fill canceled by the broker (IOC, FOK, fill and kill). */
const IMMEDIATE_DURATIONS = "('ioc', 'fok', 'fak')";

/**
 * Event types a signal's move from stored status `from` to `status` reports (`order`: its
 * normalized order, jsonb). From placing or unknown (the broker's answer, reconciliation):
 * rejected → order.rejected, filled → placed and filled, placing/unknown/draft → nothing yet,
 * canceled → order.rejected with the broker's message (an order the broker ended at once, an IOC
 * or FOK that did not fill, never worked; but not for `action` cancel or close, whose success
 * brokers answer as canceled), every other → placed. Canceled from unknown (found by reconciliation,
 * however much later) is rejected only for an IOC, FOK or fill-and-kill order: every other (a limit
 * order resting until canceled at the broker, or expired at the day's end) was placed, and is told
 * as placed with its status canceled, as a resting order's later cancel tells nothing more.
 * From a status that was already told as placed (a resting order followed to its end,
 * modules/signals/follow-fills.ts): filled → order.filled, rejected → order.rejected, anything
 * else (canceled) → nothing.
 */
export function orderEventTypesSql(status: string, from: string, order: string): string {
  return `case
    when ${from} not in ('placing', 'unknown', 'draft') then case
      when ${status} = 'filled' then array['order.filled']
      when ${status} in ('rejected', 'failed') then array['order.rejected']
      else array[]::text[] end
    when ${status} in ('rejected', 'failed') then array['order.rejected']
    when ${status} = 'filled' then array['order.placed', 'order.filled']
    when ${status} in ('placing', 'unknown', 'draft') then array[]::text[]
    when ${status} = 'canceled' and coalesce(${order}->>'action', '') not in ('cancel', 'close')
      and (${from} <> 'unknown' or lower(coalesce(${order}->>'duration', '')) in ${IMMEDIATE_DURATIONS})
      then array['order.rejected']
    else array['order.placed'] end`;
}

/**
 * A select of notification source rows (`user_id, connector_id, account_id, type, data`, see
 * notificationEventCtes) from `changed`, a relation with the signals columns `id, user_id,
 * hook_id, connector_id, account_id, provider_name, is_test, status, "order", broker_order_id,
 * price` and `types text[]` (the events to emit) and `message text` (order.rejected's reason,
 * or what to do about an order whose outcome stays unknown). A REST API order's caller is read
 * from its row (`via`, never changed once stored), by its key and only for the API's hook.
 * `data` is OrderEventData (modules/notifications/events.ts).
 */
export function signalEventSource(changed: string): string {
  return `select x.user_id, x.connector_id, x.account_id, t.type,
      jsonb_build_object('signalId', x.id,
        'hook', (select jsonb_build_object('key', h.key, 'name', h.name)
            || case when h.is_api then '{"api": true}'::jsonb
                || coalesce((select jsonb_build_object('via', s.via) from signals s where s.id = x.id and s.via is not null), '{}')
              else '{}'::jsonb end
          from hooks h where h.id = x.hook_id),
        'connectorKey', (select c.key from connectors c where c.id = x.connector_id),
        'providerName', x.provider_name, 'accountId', x.account_id, 'order', x."order", 'status', x.status,
        'brokerOrderId', x.broker_order_id, 'price', x.price,
        'message', case when t.type = 'order.rejected' or x.status = 'unknown' then x.message end) as data
    from ${changed} x
    cross join lateral unnest(x.types) as t(type)
    where not x.is_test
      and exists (select 1 from notifications n where n.user_id = x.user_id and n.is_enabled)`;
}
