// The environment a function process gets: what Supabase gives every function (legacy and
// new-format keys, the database URL, the JWKS), plus the developer's supabase/functions/.env
// like `supabase functions serve` loads it, plus the few host variables Deno itself needs.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../types.ts';

// Host variables Deno needs to run and to reach the npm registry; nothing else leaks in.
const HOST_VARIABLES = [
  'PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'DENO_DIR', 'DENO_CERT', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  'NPM_CONFIG_REGISTRY', 'npm_config_registry', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY',
  'http_proxy', 'https_proxy', 'no_proxy',
];

/** Parses a dotenv file: KEY=value lines, `export` prefixes, # comments, single/double quotes. */
export function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, key, rest] = match;
    let value = rest;
    if (value.startsWith('"')) {
      const end = value.lastIndexOf('"');
      value = value.slice(1, end > 0 ? end : undefined).replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else if (value.startsWith("'")) {
      const end = value.lastIndexOf("'");
      value = value.slice(1, end > 0 ? end : undefined);
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    values[key] = value;
  }
  return values;
}

/** Variables shared by every function process (SB_EXECUTION_ID is added per process start). */
export function functionEnvironment(ctx: ServiceContext): Record<string, string> {
  const { config, signingKey } = ctx;
  const host: Record<string, string> = {};
  for (const name of HOST_VARIABLES) {
    const value = process.env[name];
    if (value !== undefined) host[name] = value;
  }

  // Names the CLI reserves: user secrets cannot override them.
  const user: Record<string, string> = {};
  const dotenvFile = path.join(config.supabaseDir, 'functions', '.env');
  if (existsSync(dotenvFile)) {
    for (const [name, value] of Object.entries(parseDotenv(readFileSync(dotenvFile, 'utf8')))) {
      if (name.startsWith('SUPABASE_')) ctx.log(`[functions] ${dotenvFile}: names starting with SUPABASE_ are reserved, skipping ${name}`);
      else user[name] = value;
    }
  }

  return {
    ...host,
    // Product settings a hosted project sets as secrets (`supabase secrets set`); locally the
    // invitation links point at the web app and mail goes to the stack's MailDev.
    FIELDCHECK_SITE_URL: config.auth.siteUrl,
    SMTP_HOST: config.host,
    SMTP_PORT: String(config.ports.mailSmtp),
    SMTP_SECURE: 'false',
    MAIL_FROM: 'Fieldcheck <no-reply@fieldcheck.local>',
    // The local stack alone lets webhooks go to loopback and private addresses, so they can be
    // tried against a receiver on this machine (docs/webhooks.md). Hosted projects leave it unset.
    FIELDCHECK_WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
    ...user,
    // Plain logs in the stack log, and no update check calling out to the network.
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
    // Deno trusts only its built-in roots by default; behind a TLS-inspecting proxy (as on our
    // CI machines) npm downloads then fail with "invalid peer certificate: UnknownIssuer".
    DENO_TLS_CA_STORE: process.env.DENO_TLS_CA_STORE ?? 'system,mozilla',
    SUPABASE_URL: config.apiUrl,
    SUPABASE_ANON_KEY: config.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
    SUPABASE_DB_URL: config.dbUrl,
    SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: config.publishableKey }),
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: config.secretKey }),
    SUPABASE_JWKS: JSON.stringify({ keys: [signingKey.publicJwk] }),
    SB_REGION: 'local',
  };
}
