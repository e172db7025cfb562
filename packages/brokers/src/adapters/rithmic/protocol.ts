// R | Protocol framing (broker-specs/rithmic/WIRE.md §1): every WebSocket binary frame carries one
// protobuf message, told apart by its template_id (tag 154467). As the open-source clients do
// (async_rithmic plants/base.py `_convert_request_to_bytes` / `_convert_bytes_to_response`), the
// serialized message is preceded by its length as a 4-byte big-endian integer in both directions.
// A frame holding the bare message (WIRE.md's wording) is read too: the two cannot be confused, as
// every message starts with a field tag of at least three bytes whose first has its high bit set,
// which as a length would exceed 2^31.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';

/** A message as plain fields (the proto's snake_case names), template_id included. */
export type RithmicFields = Record<string, unknown> & { template_id: number };

const root = protobuf.parse(readFileSync(new URL('./rithmic.proto', import.meta.url), 'utf8'), {
  keepCase: true,
}).root;

/** Template id → message name (async_rithmic plants/base.py TEMPLATES_MAP). */
export const TEMPLATES = {
  10: 'RequestLogin',
  11: 'ResponseLogin',
  12: 'RequestLogout',
  13: 'ResponseLogout',
  16: 'RequestRithmicSystemInfo',
  17: 'ResponseRithmicSystemInfo',
  18: 'RequestHeartbeat',
  19: 'ResponseHeartbeat',
  75: 'Reject',
  77: 'ForcedLogout',
  113: 'RequestFrontMonthContract',
  114: 'ResponseFrontMonthContract',
  300: 'RequestLoginInfo',
  301: 'ResponseLoginInfo',
  302: 'RequestAccountList',
  303: 'ResponseAccountList',
  308: 'RequestSubscribeForOrderUpdates',
  309: 'ResponseSubscribeForOrderUpdates',
  310: 'RequestTradeRoutes',
  311: 'ResponseTradeRoutes',
  312: 'RequestNewOrder',
  313: 'ResponseNewOrder',
  316: 'RequestCancelOrder',
  317: 'ResponseCancelOrder',
  318: 'RequestShowOrderHistoryDates',
  319: 'ResponseShowOrderHistoryDates',
  320: 'RequestShowOrders',
  321: 'ResponseShowOrders',
  324: 'RequestShowOrderHistorySummary',
  325: 'ResponseShowOrderHistorySummary',
  330: 'RequestBracketOrder',
  331: 'ResponseBracketOrder',
  351: 'RithmicOrderNotification',
  352: 'ExchangeOrderNotification',
} as const satisfies Record<number, string>;

export type TemplateId = keyof typeof TEMPLATES;
export const TICKER_PLANT = 1;
export const ORDER_PLANT = 2;

export const isTemplate = (id: number): id is TemplateId => id in TEMPLATES;

const messageType = (id: TemplateId) => root.lookupType(`rti.${TEMPLATES[id]}`);
const baseType = root.lookupType('rti.Base');

/** Whether a frame starts with its length prefix (else it is a bare message). */
export function hasLengthPrefix(frame: Uint8Array): boolean {
  return frame.length >= 4 && new DataView(frame.buffer, frame.byteOffset, 4).getUint32(0) === frame.length - 4;
}

/** The frame for a message: its length (4 bytes, big-endian) and the serialized message, or the bare message. */
export function encodeFrame(fields: RithmicFields, prefixed = true): Uint8Array {
  const id = fields.template_id;
  if (!isTemplate(id)) throw new Error(`unknown Rithmic template ${id}`);
  const type = messageType(id);
  const problem = type.verify(fields);
  if (problem) throw new Error(`${TEMPLATES[id]}: ${problem}`);
  const body = type.encode(type.fromObject(fields)).finish();
  if (!prefixed) return body;
  const frame = new Uint8Array(4 + body.length);
  new DataView(frame.buffer).setInt32(0, body.length);
  frame.set(body, 4);
  return frame;
}

/** A received frame's message; a template this file does not declare comes back as its id alone. */
export function decodeFrame(frame: Uint8Array): RithmicFields {
  const body = hasLengthPrefix(frame) ? frame.subarray(4) : frame;
  const { template_id: id } = baseType.toObject(baseType.decode(body)) as { template_id?: number };
  if (id === undefined) throw new Error('Rithmic frame without template_id');
  if (!isTemplate(id)) return { template_id: id };
  const type = messageType(id);
  return { ...(type.toObject(type.decode(body)) as Record<string, unknown>), template_id: id };
}

/** The texts of a repeated rp_code (["0"] = success; else a code then text). */
export function rpCode(fields: Record<string, unknown>, key: 'rp_code' | 'rq_handler_rp_code' = 'rp_code'): string[] {
  const value = fields[key];
  return Array.isArray(value) ? value.map(String) : [];
}

export const isSuccess = (codes: string[]) => codes.length > 0 && codes[0] === '0';
