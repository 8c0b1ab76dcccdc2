// Broadcasts from the database: rows that realtime.send() / realtime.broadcast_changes() insert
// into realtime.messages. A trigger (stack/platform/30-realtime.sql) NOTIFYs each committed row;
// this LISTENs on its own connection and hands the messages on in commit order.
import postgres from 'postgres';
import type { StackConfig } from '../config.ts';

const NOTIFY_CHANNEL = 'local_stack_realtime_messages';

export interface DatabaseMessage {
  id: string;
  topic: string;
  event: string;
  private: boolean;
  payload: unknown;
}

export interface DatabaseListener {
  listening(): boolean;
  close(): Promise<void>;
}

interface Notification {
  id: string;
  topic?: string | null;
  event?: string | null;
  private?: boolean | null;
  payload?: unknown;
  /** The row was too large for a notification: read it from the table. */
  fetch?: boolean;
}

export async function listenForDatabaseMessages(
  config: StackConfig,
  deliver: (message: DatabaseMessage) => void,
  log: (message: string) => void,
): Promise<DatabaseListener> {
  const sql = postgres(config.serviceDbUrls.admin, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: 'local-stack-realtime' },
  });
  let listening = false;
  // Rows that must be read back keep later notifications waiting, so commit order holds.
  let pending: Promise<void> = Promise.resolve();
  let waiting = 0;

  function hand(row: Notification): void {
    // Realtime skips rows without these (ReplicationConnection's get_or_error).
    if (typeof row.topic !== 'string' || typeof row.event !== 'string' || row.payload === undefined || row.payload === null) return;
    deliver({ id: row.id, topic: row.topic, event: row.event, private: row.private === true, payload: row.payload });
  }

  async function readRow(row: Notification): Promise<Notification | undefined> {
    const [found] = await sql<Notification[]>`
      select id, topic, event, private, payload from realtime.messages where id = ${row.id}`;
    return found;
  }

  function onNotification(text: string): void {
    let row: Notification;
    try {
      row = JSON.parse(text);
    } catch {
      log(`Realtime: ignored a notification that is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    if (!row.fetch && waiting === 0) {
      hand(row);
      return;
    }
    waiting++;
    pending = pending
      .then(async () => {
        const full = row.fetch ? await readRow(row) : row;
        if (full) hand(full);
        else log(`Realtime: message ${row.id} was gone before it could be read`);
      })
      .catch((error) => log(`Realtime: could not read message ${row.id}: ${(error as Error).message}`))
      .finally(() => {
        waiting--;
      });
  }

  const [trigger] = await sql`
    select 1 from pg_trigger where tgname = 'local_stack_notify_realtime_service' and tgrelid = 'realtime.messages'::regclass`;
  if (!trigger) {
    log('Realtime: this database predates the trigger that delivers realtime.send() messages; run `npm run db:reset` to add it.');
  }
  await sql.listen(NOTIFY_CHANNEL, onNotification);
  listening = Boolean(trigger);

  return {
    listening: () => listening,
    async close() {
      listening = false;
      await sql.end({ timeout: 2 });
    },
  };
}
