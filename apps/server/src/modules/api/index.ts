// The REST API v1's services (http/api calls them): accounts, orders through the signal path,
// holdings. Every function takes the caller's user id: nothing here reaches another user's data.
export { ACCOUNT_NOT_FOUND, listApiAccounts, type ResolvedAccount, requireApiAccount } from './accounts.ts';
export { getApiBalances, getApiPositions } from './holdings.ts';
export { cancelApiOrder, getApiOrder, listApiOrders, ORDER_NOT_FOUND, type Page } from './orders.ts';
export { API_HOOK_NAME, type PlaceOrderResult, placeApiOrder } from './place-order.ts';
