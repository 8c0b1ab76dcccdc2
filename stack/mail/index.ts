// The stack's mail catcher: MailDev (SMTP + web inbox + REST API), in the role Mailpit /
// Inbucket play for `supabase start`. Nothing leaves the machine.
import { createRequire } from 'node:module';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { StackConfig } from '../config.ts';
import { PORT_SERVICES, whenListening } from '../ports.ts';
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
  // A port another program took since the start checked it must reject this start (which then
  // stops what it had started). MailDev's own listen() never settles then: the SMTP server's error
  // handler (onSmtpError) throws the EADDRINUSE, uncaught, and the inbox's web server has no
  // error listener at all. So the SMTP server is bound here, its net server's error rejecting
  // whenListening, while smtp-server's SMTPServer (which re-emits that error, and throws an
  // 'error' no one listens to) has its handler swapped for one that ignores it; it gets MailDev's
  // back for the errors it handles while serving (a client's connection reset).
  const smtp = mailserver.smtp;
  const ignore = () => {};
  smtp.off('error', mailserver.onSmtpError);
  smtp.on('error', ignore);
  try {
    smtp.listen(config.ports.mailSmtp, config.host);
    await whenListening(smtp.server, config.ports.mailSmtp, PORT_SERVICES.mailSmtp);
  } finally {
    smtp.off('error', ignore);
    smtp.on('error', mailserver.onSmtpError);
  }
  web.start(config.ports.mailWeb, config.host, mailserver, undefined, undefined, '/', {});
  try {
    // start() has called listen(); its error comes later, so it is not missed.
    await whenListening(web.server, config.ports.mailWeb, PORT_SERVICES.mailWeb);
  } catch (error) {
    await new Promise<void>((resolve) => mailserver.close(() => web.close(() => resolve())));
    throw error;
  }
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
