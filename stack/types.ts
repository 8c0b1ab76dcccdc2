// Shared shapes of the Docker-free local stack. Every service is an in-process module that
// the gateway routes to by URL prefix; state lives only in Postgres and the data folder.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Sql } from 'postgres';
import type { StackConfig } from './config.ts';
import type { SigningKey } from './keys.ts';

export interface Mailer {
  /** Sends one message through the stack's SMTP catcher (MailDev). */
  send(message: { to: string; subject: string; html: string; text: string }): Promise<void>;
}

export interface ServiceContext {
  config: StackConfig;
  /** The service's own pool on the stack's database, logged in as its hosted role (stack/server.ts). */
  sql: Sql;
  signingKey: SigningKey;
  mail: Mailer;
  log: (message: string) => void;
}

export interface Service {
  /**
   * Handles one request whose URL starts with the service's prefix. `path` is the rest of the
   * URL after the prefix, including the query string (e.g. `/token?grant_type=password`).
   */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** Optional WebSocket upgrade handler (realtime). */
  upgrade?(req: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer, path: string): void;
  close?(): Promise<void>;
}
