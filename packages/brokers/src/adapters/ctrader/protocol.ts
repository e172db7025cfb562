// The Open API's messages, from Spotware's own .proto files (proto/, MIT) through protobufjs: no
// hand-written encoder. Every frame is a ProtoMessage {payloadType, payload (the inner message's
// bytes), clientMsgId}; each inner message names its payloadType in the default of its own
// `payloadType` field, which is how types are found by number. Payloads are read and written in
// the JSON form of WIRE.md's fixtures: proto field names, enums and 64-bit integers as numbers.
//   encodeMessage('ProtoOACancelOrderReq', {ctidTraderAccountId: 44533070, orderId: 68412399}, 'cm-1')
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import type { JsonRecord } from '../../core/json-read.ts';

const PROTO_DIR = new URL('./proto/', import.meta.url);
const FILES = ['OpenApiCommonMessages.proto', 'OpenApiMessages.proto'];

/** A frame as read: the inner message's name and payload, and the client's message id. */
export interface WireMessage {
  payloadType: number;
  /** The message type (ProtoOAExecutionEvent), or '' for a payload type the schema lacks. */
  name: string;
  payload: JsonRecord;
  clientMsgId?: string;
}

const TO_JSON: protobuf.IConversionOptions = { longs: Number, enums: Number, defaults: false, arrays: false };

function loadRoot(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => fileURLToPath(new URL(target, PROTO_DIR));
  root.loadSync(FILES, { keepCase: true });
  root.resolveAll();
  return root;
}

function messageTypes(namespace: protobuf.NamespaceBase): protobuf.Type[] {
  return namespace.nestedArray.flatMap((item) => {
    const own = item instanceof protobuf.Type ? [item] : [];
    return item instanceof protobuf.Namespace ? [...own, ...messageTypes(item)] : own;
  });
}

const root = loadRoot();
const envelope = root.lookupType('ProtoMessage');
const byName = new Map<string, { type: protobuf.Type; payloadType: number }>();
const byNumber = new Map<number, protobuf.Type>();
for (const type of messageTypes(root)) {
  const payloadType = type.fields.payloadType?.typeDefault;
  if (typeof payloadType !== 'number') continue;
  byName.set(type.name, { type, payloadType });
  byNumber.set(payloadType, type);
}

function typeNamed(name: string): { type: protobuf.Type; payloadType: number } {
  const found = byName.get(name);
  if (!found) throw new Error(`no Open API message ${name}`);
  return found;
}

export function payloadTypeOf(name: string): number {
  return typeNamed(name).payloadType;
}

export function messageName(payloadType: number): string {
  return byNumber.get(payloadType)?.name ?? '';
}

/** Why `payload` is not a valid `name` (a missing required field, a wrong type), or undefined. */
export function invalidPayload(name: string, payload: JsonRecord): string | undefined {
  return typeNamed(name).type.verify(payload) ?? undefined;
}

/** One frame: ProtoMessage around the encoded payload. Throws on a payload the schema refuses. */
export function encodeMessage(name: string, payload: JsonRecord, clientMsgId?: string): Uint8Array {
  const { type, payloadType } = typeNamed(name);
  const problem = type.verify(payload);
  if (problem) throw new Error(`${name}: ${problem}`);
  const inner = type.encode(type.fromObject(payload)).finish();
  const frame = { payloadType, payload: inner, ...(clientMsgId !== undefined ? { clientMsgId } : {}) };
  return envelope.encode(envelope.fromObject(frame)).finish();
}

/** Reads a frame. Throws when it or its payload is not what the schema describes (a required field missing). */
export function decodeMessage(bytes: Uint8Array): WireMessage {
  // A decoded message holds its fields as properties; payloadType is a uint32, payload bytes.
  const frame = envelope.decode(bytes) as unknown as {
    payloadType: number;
    payload?: Uint8Array;
    clientMsgId?: string;
  };
  const type = byNumber.get(frame.payloadType);
  const payload = type ? (type.toObject(type.decode(frame.payload ?? new Uint8Array()), TO_JSON) as JsonRecord) : {};
  // The inner payloadType field repeats the frame's; the frame's is the one that counts.
  delete payload.payloadType;
  return {
    payloadType: frame.payloadType,
    name: type?.name ?? '',
    payload,
    ...(frame.clientMsgId ? { clientMsgId: frame.clientMsgId } : {}),
  };
}
