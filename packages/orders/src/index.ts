export * from './enumerations.ts';
export { isOrderValidationError, NO_SYMBOL, OrderValidationError } from './errors.ts';
export {
  EXPRESSION_CACHE_SIZE,
  evaluateExpression,
  MAX_EXPRESSION_LENGTH,
  toNumber,
} from './expression/evaluate.ts';
export { MAX_EXPRESSION_DEPTH } from './expression/parser.ts';
export { duplicateKey, MAX_BODY_LENGTH, withoutByteOrderMark } from './order/body.ts';
export { defaultType, providerDefaultDuration } from './order/build-order.ts';
export {
  type NormalizeOptions,
  type NormalizeResult,
  normalizeOrder,
  normalizeOrderOrThrow,
  type OrderRefusal,
} from './order/normalize.ts';
export { MAX_LEGS, PLACEHOLDER, type RawLeg, type RawOrder, rawLegSchema, rawOrderSchema } from './order/raw-schema.ts';
export {
  type AlertMessage,
  type AlertPlatform,
  alertJson,
  alertMessages,
  fillPlaceholders,
  PLACEHOLDERS,
  type Placeholder,
} from './playground/alert-messages.ts';
export { type DocumentedOrder, sampleOrders, shownOrders } from './playground/documented-orders.ts';
export {
  exampleBody,
  exampleJson,
  exampleUnavailableMessage,
  findExample,
  isExampleAvailable,
  ORDER_EXAMPLES,
  type OrderExample,
} from './playground/examples.ts';
export { type OrderTextResult, parseOrderText } from './playground/json.ts';
export {
  ANSWER_STATUSES,
  SAMPLE_ERROR_RESPONSE,
  SAMPLE_SUCCESS_RESPONSE,
} from './playground/responses.ts';
export { applyAction, applyClass, applySymbol, applyType, cleanResult } from './playground/rules.ts';
export {
  buildSampleOrder,
  classExampleSymbol,
  defaultExamplePayload,
  examplePrice,
  firstActionFor,
  type OrderDraft,
  type PlaygroundChoices,
  playgroundChoices,
  providerActions,
  providerClasses,
  providerTypes,
  type SampleSelection,
} from './playground/sample.ts';
export {
  currentExample,
  exampleContractMonth,
  exampleOptionExpiry,
  withCurrentExamples,
} from './symbols/dated-examples.ts';
export { oneDigitYear } from './symbols/future.ts';
export { futureTickOf, isKnownFutureRoot } from './symbols/future-roots.ts';
export {
  exchangePrefix,
  isClassCompatible,
  MAX_SYMBOL_LENGTH,
  type ParseSymbolOptions,
  parseSymbol,
  writtenSymbol,
} from './symbols/parse-symbol.ts';
export type { FutureMonthCode, ParsedSymbol, SymbolParts } from './symbols/parsed-symbol.ts';
export { FUTURE_MONTH_CODES } from './symbols/parsed-symbol.ts';
export { instantOf, latestWallHour, wallClock } from './time/wall-clock.ts';
export * from './types.ts';
