// The reminder mail worker (docs/schedules.md, "Reminders"), a deployable of its own: woken every
// minute (pg_cron + pg_net on Supabase, the local stack's scheduler here) by a POST carrying the
// project's service-role or secret key. Each wake sends the reminders the schedules' background run
// wrote to the outbox, and records what happened; the database decides retries.
import { database } from '../_shared/db.ts';
import { renderProblem } from '../_shared/errors.ts';
import { workerKeyAccepted } from '../_shared/worker-key.ts';
import { sendDueReminders } from './worker.ts';

Deno.serve(async (req) => {
  if (req.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
  if (!workerKeyAccepted(req)) return Response.json({ code: 'unauthenticated' }, { status: 401 });
  try {
    return Response.json(await sendDueReminders(database()));
  } catch (error) {
    // A database that is restarting is a 503 the next wake retries, never a raw stack trace.
    return renderProblem(error, crypto.randomUUID());
  }
});
