// The stack's ports by the service that listens on them, the message for a port another program
// holds, and binding a server so that such a port rejects its start with that message.
import { once } from 'node:events';
import type { Server } from 'node:net';
import type { StackPorts } from './config.ts';

/** Who listens on each of the stack's fixed ports (the functions' ports are chosen free at start). */
export const PORT_SERVICES: Record<Exclude<keyof StackPorts, 'functionsBase'>, string> = {
  api: 'the API gateway',
  db: 'Postgres',
  mailWeb: "the mail catcher's inbox (MailDev)",
  mailSmtp: "the mail catcher's SMTP (MailDev)",
};

/** A port the stack needs is held by another program; the message says which and what to do. */
export class PortInUseError extends Error {}

export function portInUse(port: number, service: string): PortInUseError {
  return new PortInUseError(
    `Port ${port} (${service}) is already in use by another program. ` +
      `Stop that program (see \`ss -ltnp 'sport = :${port}'\`), or a running \`supabase start\` (\`supabase stop\`), and try again.`,
  );
}

/**
 * Resolves once `server` listens, after its listen() was called; rejects if it cannot bind: a port
 * another program took since the start checked it (ensurePortsFree) with portInUse's message, any
 * other failure (a privileged port, an address not on this machine) with one naming the port and
 * the service too. Without this a server with no 'error' listener (MailDev's two) throws its
 * EADDRINUSE as an uncaught exception, which ended the process without stopping what had started.
 */
export async function whenListening(server: Server, port: number, service: string): Promise<void> {
  try {
    // once() rejects if the server emits 'error' first, and removes its listeners either way.
    await once(server, 'listening');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw portInUse(port, service);
    throw new Error(`${service[0].toUpperCase()}${service.slice(1)} could not listen on port ${port}: ${(error as Error).message}`);
  }
}
