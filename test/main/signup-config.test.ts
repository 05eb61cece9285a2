// SIGNUP and the mail settings as the configuration reads them: off by default in production,
// open otherwise; invite and open refused in production without SMTP_URL; mail to the log in
// development, none in production, SMTP when SMTP_URL is set.
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('SIGNUP and SMTP_URL', () => {
  test('when nothing is set, then sign-up is off in production (no mail) and open in development (mail to the log)', () => {
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ signUp: 'off', mail: { kind: 'none' } });
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({ signUp: 'open', mail: { kind: 'log' } });
  });

  test('when production asks for invite or open without SMTP_URL, then the configuration is refused, naming both', () => {
    for (const mode of ['invite', 'open']) {
      expect(() => loadConfig({ NODE_ENV: 'production', SIGNUP: mode })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: 'production', SIGNUP: mode })).toThrow(/SIGNUP: .* needs mail: set SMTP_URL/);
    }
  });

  test('when SMTP_URL is set, then mail goes there, from MAIL_FROM or no-reply at the public host', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      SIGNUP: 'invite',
      SMTP_URL: 'smtps://user:secret@mail.example.org:465',
      PUBLIC_BASE_URL: 'https://api.example.org',
    });
    expect(config).toMatchObject({
      signUp: 'invite',
      mail: {
        kind: 'smtp',
        url: 'smtps://user:secret@mail.example.org:465',
        from: 'School Search API <no-reply@api.example.org>',
      },
    });
    expect(loadConfig({ SMTP_URL: 'smtp://localhost:25', MAIL_FROM: 'Ops <ops@example.org>' }).mail).toMatchObject({
      from: 'Ops <ops@example.org>',
    });
  });

  test('when SIGNUP or SMTP_URL is not one the schema allows, then the configuration is refused', () => {
    expect(() => loadConfig({ SIGNUP: 'everyone' })).toThrow(/SIGNUP/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example.org' })).toThrow(/SMTP_URL/);
  });
});
