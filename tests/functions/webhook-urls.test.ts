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
