// Where webhooks may go (the SSRF guard, docs/webhooks.md): http(s) only, no credentials in the
// URL, and every address the host resolves to on the public internet: never loopback, private,
// link-local (cloud metadata lives at 169.254.169.254 and fd00:ec2::254), carrier-grade NAT,
// multicast or reserved space. Checked when an endpoint is saved and again before every delivery,
// because DNS can change; a delivery then connects to the address it checked and never looks the
// name up again (DNS rebinding; webhook-deliveries/pinned-post.ts). The local stack alone allows
// loopback and private addresses, by an explicit setting, so webhooks can be tried against a
// receiver on the same machine; metadata and link-local addresses stay refused even then. The
// ranges come from ipaddr.js (maintained, the IANA special-purpose registries), not from a
// hand-written list.
import ipaddr from 'ipaddr.js';

/** Cloud metadata services; AWS's IPv6 one sits in the unique-local range the local setting allows. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254']);
/** Ranges only the local stack's setting lets through (ipaddr.js range names). */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal']);
/**
 * The only IPv6 space IANA allocates for global unicast. Everything outside it is refused, whatever
 * ipaddr.js calls it: the IPv4-compatible ::/96 (deprecated, RFC 4291; a stack that still honours it
 * sends to the IPv4 address inside, e.g. ::a9fe:a9fe is 169.254.169.254) and the rest of ::/8 and
 * other space no public host has (issue 24 finding 5).
 */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
/** Words for the ranges a refusal names (ipaddr.js range names), so the person sees what it is. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'multicast',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  reserved: 'reserved or documentation space',
  as112: 'AS112 DNS sinks',
  amt: 'AMT relays',
  rfc6145: 'IPv4-translated IPv6 (::ffff:0:0:0/96)',
  rfc6052: 'NAT64 (64:ff9b::/96, 64:ff9b:1::/48), which reaches the IPv4 address inside',
  '6to4': '6to4 (2002::/16, deprecated), which reaches the IPv4 address inside',
  teredo: 'Teredo (2001::/32)',
  deprecatedSiteLocal: 'site-local IPv6 (fec0::/10, deprecated)',
  discard: 'discard-only IPv6 (100::/64)',
  benchmarking: 'benchmarking space',
  as112v6: 'AS112 DNS sinks',
  deprecatedOrchid: 'ORCHID (deprecated)',
  orchid2: 'ORCHIDv2',
  droneRemoteIdProtocolEntityTags: 'drone remote ID tags',
  segmentRouting: 'segment routing identifiers (5f00::/16)',
};

export interface AddressPolicy {
  /** The local stack's FIELDCHECK_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: loopback and private ranges allowed. */
  allowPrivate: boolean;
}

/**
 * The refusal for one address, or null when a webhook may go there: public unicast only (for IPv6,
 * inside 2000::/3), plus loopback and private ranges where the setting allows. Everything else
 * (link-local and metadata, carrier-grade NAT, multicast, reserved, every IPv6 form that embeds or
 * reaches an IPv4 address but the IPv4-mapped one, which is checked as the IPv4 address it is) is
 * refused always.
 */
export function addressRefusal(address: string, policy: AddressPolicy): string | null {
  if (!ipaddr.isValid(address)) return 'is not an IP address';
  const parsed = ipaddr.process(address); // ::ffff:10.0.0.1 is checked as 10.0.0.1
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return 'is a cloud metadata address';
  const range = parsed.range();
  if (PRIVATE_RANGES.has(range)) return policy.allowPrivate ? null : `is a ${range === 'loopback' ? 'loopback' : 'private'} address`;
  if (range !== 'unicast') return `is in a range webhooks never go to: ${RANGE_WORDS[range] ?? range}`;
  if (parsed.kind() === 'ipv6') {
    if (parsed.match(IPV4_COMPATIBLE)) return 'is in a range webhooks never go to: IPv4-compatible IPv6 (::/96, deprecated), which reaches the IPv4 address inside';
    if (!parsed.match(IPV6_GLOBAL_UNICAST)) return 'is in a range webhooks never go to: IPv6 outside the global unicast space (2000::/3)';
  }
  return null;
}

export type Resolver = (hostname: string) => Promise<string[]>;

/** A and AAAA records of a host with Deno's resolver (none when it has no such record). */
export const resolveWithDns: Resolver = async (hostname) => {
  const lookups = await Promise.allSettled([Deno.resolveDns(hostname, 'A'), Deno.resolveDns(hostname, 'AAAA')]);
  return lookups.flatMap((lookup) => (lookup.status === 'fulfilled' ? lookup.value : []));
};

/**
 * Where a delivery goes: the URL as the endpoint has it (its name is the Host header and the TLS
 * server name) and the one address that was checked, which is the only one connected to: the name
 * is never looked up again between the check and the connection (issue 24 finding 4, DNS
 * rebinding).
 */
export interface CheckedDestination {
  url: URL;
  /** The URL's host without IPv6 brackets: the TLS server name. */
  hostname: string;
  /** The checked address, connected to as it is (an IPv4-mapped one as its IPv4 address). */
  address: string;
  /** A public internet address, not one the local setting let through: only its answers are kept. */
  public: boolean;
}

export type DestinationCheck = { destination: CheckedDestination; refusal?: never } | { refusal: string; destination?: never };

/**
 * Looks the URL's host up once (a literal IP is not looked up) and checks every address it has;
 * where all may be reached, the first is the destination. A refusal is in words for the person who
 * typed the URL.
 */
export async function checkWebhookUrl(url: string, policy: AddressPolicy, resolve: Resolver = resolveWithDns): Promise<DestinationCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refusal: 'Enter a full URL, e.g. https://example.com/webhooks.' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { refusal: 'Use an http or https URL.' };
  if (parsed.username || parsed.password) return { refusal: 'Leave user names and passwords out of the URL; each delivery is signed instead.' };
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = ipaddr.isValid(host) ? [host] : await resolve(host).catch(() => []);
  if (addresses.length === 0) return { refusal: `${host} could not be found.` };
  for (const address of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) return { refusal: `Webhooks go to public internet addresses; ${host} ${address === host ? '' : `(${address}) `}${refusal}.` };
  }
  const address = ipaddr.process(addresses[0]).toString();
  return { destination: { url: parsed, hostname: host, address, public: addressRefusal(address, { allowPrivate: false }) === null } };
}

/** Why a webhook may not go to `url` (checked when an endpoint is saved), or null when it may. */
export async function webhookUrlRefusal(url: string, policy: AddressPolicy, resolve: Resolver = resolveWithDns): Promise<string | null> {
  return (await checkWebhookUrl(url, policy, resolve)).refusal ?? null;
}

/** The setting as this function instance has it. */
export function addressPolicyFromEnv(): AddressPolicy {
  return { allowPrivate: Deno.env.get('FIELDCHECK_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES') === 'true' };
}
