// Per-IP sign-in rate limit: one source address is throttled with 429 while another is not.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { addressToThrottle, freshLoopbackAddress } from '../../support/clients.ts';
import { rawRequest } from './support.ts';

// Fresh addresses, so neither this test nor any other test sending from a fixed address is throttled.
const THROTTLED_ADDRESS = addressToThrottle();
const OTHER_ADDRESS = freshLoopbackAddress();

function signIn(localAddress: string, agent?: http.Agent) {
  return rawRequest('/auth/v1/token?grant_type=password', {
    method: 'POST',
    localAddress,
    agent,
    body: { email: 'nobody-rate-limit@example.test', password: 'wrong-horse-42', gotrue_meta_security: {} },
  });
}

describe('sign-in rate limit per IP', () => {
  it('answers 429 over_request_rate_limit to one address while another still signs in', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    let throttled: Awaited<ReturnType<typeof signIn>> | undefined;
    for (let attempt = 0; attempt < 500 && !throttled; attempt++) {
      const response = await signIn(THROTTLED_ADDRESS, agent);
      if (response.status === 429) throttled = response;
      else expect(response.status).toBe(400);
    }
    agent.destroy();
    expect(throttled, 'no 429 after 500 sign-ins from one address').toBeDefined();
    expect(throttled!.json()).toMatchObject({ code: 'over_request_rate_limit', error_code: 'over_request_rate_limit' });
    expect(Number(throttled!.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled!.headers['x-supabase-api-version']).toBe('2024-01-01');

    const other = await signIn(OTHER_ADDRESS);
    expect(other.status).toBe(400);
    expect(other.json().code).toBe('invalid_credentials');
  });
});
