// The stack's mail catcher: MailDev (SMTP + web inbox + REST API), in the role Mailpit /
// Inbucket play for `supabase start`. Nothing leaves the machine.
import { createRequire } from 'node:module';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { StackConfig } from '../config.ts';
import type { Mailer } from '../types.ts';

const require = createRequire(import.meta.url);

export interface RunningMail {
  mailer: Mailer;
  stop(): Promise<void>;
}

export const MAIL_SENDER = 'Fieldcheck <no-reply@fieldcheck.local>';

export async function startMail(config: StackConfig): Promise<RunningMail> {
  // MailDev's own entry point installs SIGINT/SIGTERM handlers that exit the process, which
  // would cut our shutdown short; its two parts are started directly instead.
  const mailserver = require('maildev/lib/mailserver');
  const web = require('maildev/lib/web');
  const logger = require('maildev/lib/logger');
  logger.setLevel(0);
  mailserver.create(config.ports.mailSmtp, config.host, path.join(config.dataDir, 'mail'));
  await mailserver.listen();
  web.start(config.ports.mailWeb, config.host, mailserver, undefined, undefined, '/', {});
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.ports.mailSmtp,
    secure: false,
    ignoreTLS: true,
  });
  return {
    mailer: {
      async send({ to, subject, html, text }) {
        await transport.sendMail({ from: MAIL_SENDER, to, subject, html, text });
      },
    },
    stop: () =>
      new Promise<void>((resolve) => {
        transport.close();
        mailserver.close(() => web.close(() => resolve()));
      }),
  };
}
