// The Phoenix wire formats realtime-js speaks (its lib/serializer.ts, and Realtime's
// V1.JSONSerializer / V2Serializer): vsn 1.0.0 sends JSON objects, vsn 2.0.0 JSON arrays plus
// two binary broadcast frames — kind 3 (client → server) and kind 4 (server → client).

export type Vsn = '1.0.0' | '2.0.0';
export const SUPPORTED_VSNS: readonly string[] = ['1.0.0', '2.0.0'];

/** Refs are echoed exactly as the client sent them (realtime-js sends strings). */
export type Ref = string | number | null;

/** A broadcast payload that travelled as raw bytes (binary encoding 0), never parsed as JSON. */
export class BinaryPayload {
  readonly bytes: Buffer;
  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Realtime's FlexibleBoolean: true, or the string "true". */
export function flag(value: unknown): boolean {
  return value === true || value === 'true';
}

export interface Inbound {
  joinRef: Ref;
  ref: Ref;
  topic: string;
  event: string;
  payload: unknown;
  /** True for a binary kind-3 push; its payload is `{type: 'broadcast', event, payload}`. */
  userBroadcastPush?: boolean;
}

export interface Outbound {
  joinRef: Ref;
  ref: Ref;
  topic: string;
  event: string;
  payload: unknown;
}

const USER_BROADCAST_PUSH = 3;
const USER_BROADCAST = 4;
const BINARY_ENCODING = 0;
const JSON_ENCODING = 1;

function isRef(value: unknown): value is Ref {
  return value === null || typeof value === 'string' || typeof value === 'number';
}

/** Decodes one frame from a client, or undefined when it is not a message of this vsn. */
export function decodeFrame(vsn: Vsn, data: Buffer, isBinary: boolean): Inbound | undefined {
  if (isBinary) return vsn === '2.0.0' ? decodeUserBroadcastPush(data) : undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    return undefined;
  }
  let message: Inbound;
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length < 5) return undefined;
    const [joinRef, ref, topic, event, payload] = parsed;
    message = { joinRef, ref, topic, event, payload };
  } else {
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const object = parsed as Record<string, unknown>;
    message = {
      joinRef: (object.join_ref ?? null) as Ref,
      ref: (object.ref ?? null) as Ref,
      topic: object.topic as string,
      event: object.event as string,
      payload: object.payload,
    };
  }
  if (typeof message.topic !== 'string' || typeof message.event !== 'string') return undefined;
  if (!isRef(message.joinRef) || !isRef(message.ref)) return undefined;
  return message;
}

/** Kind 3: kind, five lengths and an encoding byte, then join_ref|ref|topic|event|metadata|payload. */
function decodeUserBroadcastPush(data: Buffer): Inbound | undefined {
  const headerLength = 7;
  if (data.length < headerLength || data[0] !== USER_BROADCAST_PUSH) return undefined;
  const lengths = [data[1], data[2], data[3], data[4], data[5]];
  const encoding = data[6];
  if (headerLength + lengths.reduce((a, b) => a + b, 0) > data.length) return undefined;
  let offset = headerLength;
  const [joinRef, ref, topic, userEvent, metadata] = lengths.map((length) => {
    const text = data.subarray(offset, offset + length).toString('utf8');
    offset += length;
    return text;
  });
  const body = data.subarray(offset);
  let payload: unknown;
  try {
    if (metadata) JSON.parse(metadata); // only validated: the server keeps no use for it yet
    payload = encoding === BINARY_ENCODING ? new BinaryPayload(Buffer.from(body)) : JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event: 'broadcast',
    payload: { type: 'broadcast', event: userEvent, payload },
    userBroadcastPush: true,
  };
}

/** A text frame in the client's framing. V1 frames carry no join_ref, as Phoenix's V1 serializer. */
export function encodeText(vsn: Vsn, message: Outbound): string {
  if (vsn === '2.0.0') return JSON.stringify([message.joinRef, message.ref, message.topic, message.event, message.payload]);
  return JSON.stringify({ topic: message.topic, event: message.event, payload: message.payload, ref: message.ref });
}

/** Kind 4: kind, topic/event/metadata lengths, encoding, then topic|event|metadata|payload. */
export function encodeUserBroadcast(topic: string, userEvent: string, payload: unknown): Buffer | undefined {
  const topicBytes = Buffer.from(topic, 'utf8');
  const eventBytes = Buffer.from(userEvent, 'utf8');
  if (topicBytes.length > 255 || eventBytes.length > 255) return undefined;
  const binary = payload instanceof BinaryPayload;
  const body = binary ? payload.bytes : Buffer.from(JSON.stringify(payload ?? {}), 'utf8');
  const header = Buffer.from([USER_BROADCAST, topicBytes.length, eventBytes.length, 0, binary ? BINARY_ENCODING : JSON_ENCODING]);
  return Buffer.concat([header, topicBytes, eventBytes, body]);
}
