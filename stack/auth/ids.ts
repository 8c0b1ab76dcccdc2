// Shape checks for values that reach uuid and inet columns: a malformed one must be refused
// before Postgres sees it, or the cast fails and the caller gets a 500 instead of a 4xx.
import { isIP } from 'node:net';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** True for an IPv4 or IPv6 address that Postgres' inet type accepts. */
export function isIpAddress(value: string): boolean {
  return isIP(value) !== 0;
}
