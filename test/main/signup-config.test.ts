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
      LINK_SECRET: 'x'.repeat(64),
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

describe('what mail with links needs in production (issue 38)', () => {
  const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.org:587', LINK_SECRET: 's'.repeat(64) };

  test('when SMTP_URL is set without PUBLIC_BASE_URL, then the configuration is refused: links would point at localhost', () => {
    expect(() => loadConfig(production)).toThrow(/PUBLIC_BASE_URL: needed with SMTP_URL in production/);
    expect(loadConfig({ ...production, PUBLIC_BASE_URL: 'https://api.example.org' }).publicBaseUrl).toBe(
      'https://api.example.org',
    );
    // Outside production the local address is right.
    expect(loadConfig({ SMTP_URL: 'smtp://localhost:25', PORT: '4000' }).publicBaseUrl).toBe('http://localhost:4000');
  });

  test('when SMTP_URL is set without LINK_SECRET, then production refuses it; the secrets are read in order', () => {
    const { LINK_SECRET: _, ...without } = production;
    expect(() => loadConfig({ ...without, PUBLIC_BASE_URL: 'https://api.example.org' })).toThrow(
      /LINK_SECRET: needed with SMTP_URL in production/,
    );
    expect(() => loadConfig({ LINK_SECRET: 'too-short' })).toThrow(/LINK_SECRET/);
    expect(loadConfig({ LINK_SECRET: `${'a'.repeat(32)}, ${'b'.repeat(40)}` }).linkSecrets).toEqual([
      'a'.repeat(32),
      'b'.repeat(40),
    ]);
    expect(loadConfig({}).linkSecrets).toBeUndefined();
  });

  test('when the session lifetime is unset, then 12 hours, or the token lifetime when longer; shorter than it is refused', () => {
    expect(loadConfig({}).sessionMaxSeconds).toBe(12 * 3600);
    expect(loadConfig({ TOKEN_TTL_SECONDS: String(24 * 3600) }).sessionMaxSeconds).toBe(24 * 3600);
    expect(loadConfig({ SESSION_MAX_LIFETIME_SECONDS: '7200' }).sessionMaxSeconds).toBe(7200);
    expect(() => loadConfig({ SESSION_MAX_LIFETIME_SECONDS: '600', TOKEN_TTL_SECONDS: '3600' })).toThrow(
      /SESSION_MAX_LIFETIME_SECONDS: 600 is shorter than TOKEN_TTL_SECONDS/,
    );
  });
});
