import nodemailer from 'nodemailer';

/** Sends the server's few emails (a password reset link) through the operator's SMTP server. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
  close(): void;
}

/** A mailer for SMTP_URL (smtp:// or smtps://, credentials in the URL), sending from MAIL_FROM. */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
    },
    close() {
      transport.close();
    },
  };
}

/** The address of the SPA's reset page for a token. */
export function resetLink(origin: string, token: string): string {
  return `${origin}/reset-password#token=${encodeURIComponent(token)}`;
}

export function resetMail(link: string, ttlSeconds: number): { subject: string; text: string } {
  const minutes = Math.round(ttlSeconds / 60);
  return {
    subject: 'Set a new Lectio password',
    text: [
      'Someone (hopefully you) asked to set a new password for your Lectio account.',
      '',
      `Open this link to choose one (it works once, for ${minutes} minutes):`,
      link,
      '',
      'If you did not ask, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}
