// The webhook delivery worker (docs/webhooks.md), a deployable of its own: woken every few
// seconds (pg_cron + pg_net on Supabase, the local stack's scheduler here) by a POST carrying the
// project's service-role or secret key. Each wake claims due deliveries from the outbox, sends them
// signed the Standard Webhooks way, and records every attempt; the database decides retries.
import { database } from '../_shared/db.ts';
import { renderProblem } from '../_shared/errors.ts';
import { workerKeyAccepted } from '../_shared/worker-key.ts';
import { deliverDue } from './worker.ts';

Deno.serve(async (req) => {
  if (req.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
  if (!workerKeyAccepted(req)) return Response.json({ code: 'unauthenticated' }, { status: 401 });
  try {
    const summary = await deliverDue(database());
    return Response.json(summary);
  } catch (error) {
    // A database that is restarting is a 503 the next wake retries, logged as one line with
    // its SQLSTATE like every server error, never a raw stack trace in the answer.
    return renderProblem(error, crypto.randomUUID());
  }
});
