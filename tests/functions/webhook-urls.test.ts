// The SSRF guard's decisions (issue 13 part 3), tested on the decision alone: nothing is sent
// anywhere, and names resolve through a stand-in resolver (DNS is outside the product).
import assert from 'node:assert/strict';
import { addressRefusal, webhookUrlRefusal } from '../../supabase/functions/_shared/webhook-urls.ts';

const hosted = { allowPrivate: false };
const localStack = { allowPrivate: true };

Deno.test('public unicast addresses are allowed', () => {
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) assert.equal(addressRefusal(address, hosted), null, address);
});

Deno.test('loopback and private addresses are refused unless the local setting allows them', () => {
  for (const address of ['127.0.0.1', '127.1.2.3', '::1', '10.0.0.5', '172.16.4.4', '192.168.1.10', 'fd12:3456::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1']) {
    assert.match(addressRefusal(address, hosted) ?? '', /loopback|private/, address);
    assert.equal(addressRefusal(address, localStack), null, address);
  }
});

Deno.test('metadata, link-local and other special ranges are refused even with the local setting', () => {
  for (const address of ['169.254.169.254', 'fd00:ec2::254', 'fe80::1', '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255', '240.0.0.1', '64:ff9b::a00:1', '::']) {
    assert.match(addressRefusal(address, localStack) ?? '', /range|metadata/, address);
  }
});

Deno.test('URLs: http(s) only, no credentials, every resolved address checked', async () => {
  const resolve = (answers: Record<string, string[]>) => (host: string) => Promise.resolve(answers[host] ?? []);
  const dns = resolve({ 'hooks.example.com': ['93.184.216.34'], 'sneaky.example.com': ['93.184.216.34', '10.1.2.3'], 'meta.example.com': ['169.254.169.254'] });
  assert.equal(await webhookUrlRefusal('https://hooks.example.com/in', hosted, dns), null);
  assert.match(await webhookUrlRefusal('ftp://hooks.example.com/in', hosted, dns) ?? '', /http or https/);
  assert.match(await webhookUrlRefusal('https://me:secret@hooks.example.com/in', hosted, dns) ?? '', /passwords/);
  assert.match(await webhookUrlRefusal('not a url', hosted, dns) ?? '', /full URL/);
  assert.match(await webhookUrlRefusal('https://sneaky.example.com/', hosted, dns) ?? '', /10\.1\.2\.3/);
  assert.match(await webhookUrlRefusal('http://meta.example.com/', localStack, dns) ?? '', /169\.254\.169\.254/);
  assert.match(await webhookUrlRefusal('http://[::1]:8080/', hosted, dns) ?? '', /loopback/);
  assert.equal(await webhookUrlRefusal('http://127.0.0.1:8080/', localStack, dns), null);
  assert.match(await webhookUrlRefusal('https://nowhere.example.com/', hosted, dns) ?? '', /could not be found/);
});

// Issue 24 finding 5: IPv6 forms that carry or reach an IPv4 address, and IPv6 space that is not
// the public internet. One row per range, with the decision docs/webhooks.md records for it; every
// row is refused with and without the local setting, because none of them is how a developer's
// own receiver is reached (127.0.0.1 and ::1 are).
const EMBEDDED_AND_DEPRECATED: [address: string, what: string][] = [
  ['::a9fe:a9fe', 'IPv4-compatible ::/96 holding 169.254.169.254 (metadata)'],
  ['::7f00:1', 'IPv4-compatible ::/96 holding 127.0.0.1'],
  ['::a00:1', 'IPv4-compatible ::/96 holding 10.0.0.1'],
  ['::5db8:d822', 'IPv4-compatible ::/96 holding a public 93.184.216.34: still a deprecated form'],
  ['::ffff:0:a9fe:a9fe', 'IPv4-translated ::ffff:0:0:0/96 (RFC 6145)'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 64:ff9b::/96 holding the metadata address'],
  ['64:ff9b::5db8:d822', 'NAT64 64:ff9b::/96 holding a public address: the gateway decides where it goes'],
  ['64:ff9b:1::a00:1', 'local-use NAT64 64:ff9b:1::/48 (RFC 8215)'],
  ['2002:a9fe:a9fe::1', '6to4 2002::/16 holding the metadata address'],
  ['2002:7f00:1::1', '6to4 2002::/16 holding 127.0.0.1'],
  ['2002:5db8:d822::1', '6to4 2002::/16 holding a public address: deprecated (RFC 7526), relays reach the address inside'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo 2001::/32'],
  ['fec0::1', 'site-local fec0::/10 (deprecated, RFC 3879)'],
  ['100::1', 'discard-only 100::/64'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['5f00::1', 'SRv6 SIDs 5f00::/16'],
  ['1::1', 'inside ::/8, reserved by the IETF'],
  ['4000::1', 'outside 2000::/3, the only IPv6 space allocated for global unicast'],
];

Deno.test('IPv6 forms that embed or reach an IPv4 address, and deprecated or unallocated IPv6 space, are refused always', () => {
  for (const [address, what] of EMBEDDED_AND_DEPRECATED) {
    assert.notEqual(addressRefusal(address, hosted), null, `${address}: ${what}`);
    assert.notEqual(addressRefusal(address, localStack), null, `${address}: ${what} (local setting)`);
  }
});

Deno.test('IPv4-mapped addresses are the IPv4 address inside them; global unicast IPv6 is allowed', () => {
  assert.equal(addressRefusal('::ffff:93.184.216.34', hosted), null);
  assert.equal(addressRefusal('::ffff:5db8:d822', hosted), null);
  assert.match(addressRefusal('::ffff:a9fe:a9fe', localStack) ?? '', /metadata/);
  for (const address of ['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:81b::200e']) assert.equal(addressRefusal(address, hosted), null, address);
});

Deno.test('URLs with IPv4-compatible literals are refused before anything is looked up', async () => {
  const nothingResolves = () => Promise.reject(new Error('a literal address is never looked up'));
  for (const url of ['http://[::a9fe:a9fe]/', 'http://[::7f00:1]/', 'https://[::ffff:0:a9fe:a9fe]:8443/x', 'http://[64:ff9b::a9fe:a9fe]/']) {
    assert.match(await webhookUrlRefusal(url, localStack, nothingResolves) ?? '', /Webhooks go to public internet addresses/, url);
  }
});
