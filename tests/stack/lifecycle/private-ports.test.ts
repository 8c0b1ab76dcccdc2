// A private stack's ports (tests/support/private-stack.ts: npm test, the benches, the CLI's own
// tests) are chosen below the kernel's ephemeral range. Chosen by listen(0), they were in it,
// where the kernel also picks the local end of every outgoing connection; between the probe and
// the stack binding them seconds later, the connections of test runs on this shared machine
// could take one: a run of `npm run test:e2e` died at its start with EADDRINUSE on MailDev's SMTP
// port (34789), thrown from MailDev's server and uncaught. Linux only: elsewhere the range is
// not read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freeStackPorts, portsKeptBy } from '../../support/private-stack.ts';

const ephemeralStart = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return undefined;
  }
})();

describe.skipIf(ephemeralStart === undefined)('the ports of a private stack', () => {
  it('are below the kernel\'s ephemeral range, all different, and clear of the functions\' room', async () => {
    for (let round = 0; round < 20; round++) {
      const ports = await freeStackPorts();
      const { api, db, mailWeb, mailSmtp, functionsBase } = ports;
      const others = [api, db, mailWeb, mailSmtp];
      for (const port of [...others, functionsBase]) {
        expect(port).toBeGreaterThanOrEqual(1024);
        expect(port).toBeLessThan(ephemeralStart!);
      }
      expect(new Set(others).size).toBe(4);
      // The functions take ports from functionsBase up: none of those may be another service's.
      for (const port of others) expect(port < functionsBase || port >= functionsBase + 32, `${port} in ${functionsBase}…`).toBe(true);
      expect(portsKeptBy(ports)).toEqual(expect.arrayContaining([...others, functionsBase, functionsBase + 31]));
    }
  });
});
