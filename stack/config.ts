// Reads supabase/config.toml (the same file the real Supabase CLI reads) and turns it into the
// settings of the local stack. Tests override ports, the data folder and the site URL so that
// their stack never touches the developer's running one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { isValidBucketName } from './storage/names.ts';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The well-known local development secrets of the Supabase CLI. They are public and only ever
// used on a developer's machine; hosted projects have their own.
export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const LOCAL_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
export const LOCAL_SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';
export const LOCAL_DB_PASSWORD = 'postgres';

export interface StackOverrides {
  dataDir?: string;
  host?: string;
  ports?: Partial<StackPorts>;
  siteUrl?: string;
  /** Extra redirect URL patterns allowed besides config.toml's (tests add their web origin). */
  extraRedirectUrls?: string[];
  /** Extra folders of functions to serve besides supabase/functions (test fixtures). */
  extraFunctionDirs?: string[];
  /** Replaces [auth.rate_limit] values (tests that must not trip each other's limits). */
  rateLimits?: Partial<RateLimits>;
}

export interface StackPorts {
  api: number;
  db: number;
  mailWeb: number;
  mailSmtp: number;
  /** First of a range of loopback ports handed to Deno function processes. */
  functionsBase: number;
}

export interface RateLimits {
  /** Sign-in and sign-up requests per IP per 5 minutes. */
  signInSignUps: number;
  /** OTP / recovery verifications per IP per 5 minutes. */
  tokenVerifications: number;
  /** Token refreshes per IP per 5 minutes. */
  tokenRefresh: number;
  /** Emails sent per IP per hour. */
  emailSent: number;
}

export interface AuthSettings {
  siteUrl: string;
  additionalRedirectUrls: string[];
  jwtExpiry: number;
  enableRefreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  enableSignup: boolean;
  enableConfirmations: boolean;
  minimumPasswordLength: number;
  passwordRequirements: string;
  otpExpiry: number;
  otpLength: number;
  mfa: { maxEnrolledFactors: number; totpEnroll: boolean; totpVerify: boolean };
  rateLimit: RateLimits;
}

export interface BucketSettings {
  /** Bucket id and name (the key of `[storage.buckets.<name>]`). */
  name: string;
  public: boolean;
  /** Bytes, or null for only the global limit. */
  fileSizeLimit: number | null;
  /** Allowed content types (`image/*` wildcards allowed), or null for any. */
  allowedMimeTypes: string[] | null;
  /** Absolute folder whose files are uploaded into the bucket on start, or null. */
  objectsPath: string | null;
}

export interface StorageSettings {
  enabled: boolean;
  /** Global upload limit in bytes; a bucket's own limit can only lower it. */
  fileSizeLimit: number;
  buckets: BucketSettings[];
}

export interface FunctionSettings {
  name: string;
  dir: string;
  verifyJwt: boolean;
}

export interface StackConfig {
  projectRoot: string;
  supabaseDir: string;
  dataDir: string;
  host: string;
  ports: StackPorts;
  apiUrl: string;
  /** As `postgres`: migrations, seed, tests and functions (`SUPABASE_DB_URL`), as on hosted. */
  dbUrl: string;
  /** Each platform service's own login, as on hosted Supabase (see docs/local-stack.md). */
  serviceDbUrls: {
    /** The cluster's superuser: platform bootstrap, creating databases, Realtime. */
    admin: string;
    auth: string;
    storage: string;
  };
  mailUrl: string;
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
  auth: AuthSettings;
  storage: StorageSettings;
  extraFunctionDirs: string[];
  /** The parsed config.toml, for settings not modelled above. */
  toml: Record<string, any>;
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

// The Supabase CLI reads sizes with go-units' RAMInBytes: binary units, case-insensitive, the
// "i" and "b" optional, so "10MB" and "10MiB" are both 10 × 1024² bytes.
const SIZE_PATTERN = /^(\d+(?:\.\d+)?) ?([kmgtp])?i?b?$/i;
const SIZE_UNITS: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4, p: 1024 ** 5 };

/** Bytes of a config.toml size such as "50MiB", "10MB" or "512kB"; throws on anything else. */
export function parseByteSize(value: unknown, key: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  const match = typeof value === 'string' ? SIZE_PATTERN.exec(value.trim()) : null;
  if (!match) throw new Error(`${key} = ${JSON.stringify(value)} in supabase/config.toml is not a size such as "50MiB"`);
  const unit = match[2] ? SIZE_UNITS[match[2].toLowerCase()] : 1;
  return Math.floor(Number(match[1]) * unit);
}

function storageSettings(toml: Record<string, any>, supabaseDir: string): StorageSettings {
  const storage = toml.storage ?? {};
  const buckets: BucketSettings[] = Object.entries<Record<string, any>>(storage.buckets ?? {}).map(([name, bucket]) => {
    if (!isValidBucketName(name)) throw new Error(`[storage.buckets.${name}] in supabase/config.toml: the bucket name is not valid`);
    const key = `[storage.buckets.${name}] file_size_limit`;
    const limit = bucket.file_size_limit === undefined ? 0 : parseByteSize(bucket.file_size_limit, key);
    const types = bucket.allowed_mime_types;
    if (types !== undefined && (!Array.isArray(types) || types.some((t) => typeof t !== 'string'))) {
      throw new Error(`[storage.buckets.${name}] allowed_mime_types in supabase/config.toml must be a list of strings`);
    }
    return {
      name,
      public: bucket.public === true,
      // The CLI sends 0 for an unset limit, which Storage treats as "no bucket limit".
      fileSizeLimit: limit > 0 ? limit : null,
      allowedMimeTypes: types && types.length > 0 ? types : null,
      objectsPath: typeof bucket.objects_path === 'string' && bucket.objects_path !== '' ? path.resolve(supabaseDir, bucket.objects_path) : null,
    };
  });
  return {
    enabled: storage.enabled !== false,
    fileSizeLimit: parseByteSize(storage.file_size_limit ?? '50MiB', '[storage] file_size_limit'),
    buckets,
  };
}

export function loadConfig(overrides: StackOverrides = {}): StackConfig {
  const supabaseDir = path.join(projectRoot, 'supabase');
  const toml = parse(readFileSync(path.join(supabaseDir, 'config.toml'), 'utf8')) as Record<string, any>;
  const host = overrides.host ?? '127.0.0.1';
  const ports: StackPorts = {
    api: num(toml.api?.port, 54321),
    db: num(toml.db?.port, 54322),
    mailWeb: num(toml.inbucket?.port, 54324),
    mailSmtp: num(toml.inbucket?.smtp_port, 54325),
    functionsBase: 54340,
    ...overrides.ports,
  };
  const auth = toml.auth ?? {};
  const rate = auth.rate_limit ?? {};
  const email = auth.email ?? {};
  const totp = auth.mfa?.totp ?? {};
  const siteUrl = overrides.siteUrl ?? auth.site_url ?? 'http://localhost:5173';
  const dataDir = overrides.dataDir ?? path.join(projectRoot, '.stack', 'data');
  return {
    projectRoot,
    supabaseDir,
    dataDir,
    host,
    ports,
    apiUrl: `http://${host}:${ports.api}`,
    dbUrl: `postgresql://postgres:${LOCAL_DB_PASSWORD}@${host}:${ports.db}/postgres`,
    serviceDbUrls: {
      admin: `postgresql://supabase_admin:${LOCAL_DB_PASSWORD}@${host}:${ports.db}/postgres`,
      auth: `postgresql://supabase_auth_admin:${LOCAL_DB_PASSWORD}@${host}:${ports.db}/postgres`,
      storage: `postgresql://supabase_storage_admin:${LOCAL_DB_PASSWORD}@${host}:${ports.db}/postgres`,
    },
    mailUrl: `http://${host}:${ports.mailWeb}`,
    jwtSecret: LOCAL_JWT_SECRET,
    // Filled in by keys.ts (they are signed with jwtSecret).
    anonKey: '',
    serviceRoleKey: '',
    publishableKey: LOCAL_PUBLISHABLE_KEY,
    secretKey: LOCAL_SECRET_KEY,
    auth: {
      siteUrl,
      additionalRedirectUrls: [...(auth.additional_redirect_urls ?? []), ...(overrides.extraRedirectUrls ?? [])],
      jwtExpiry: num(auth.jwt_expiry, 3600),
      enableRefreshTokenRotation: auth.enable_refresh_token_rotation !== false,
      refreshTokenReuseInterval: num(auth.refresh_token_reuse_interval, 10),
      enableSignup: auth.enable_signup !== false && email.enable_signup !== false,
      enableConfirmations: email.enable_confirmations === true,
      minimumPasswordLength: num(auth.minimum_password_length, 6),
      passwordRequirements: auth.password_requirements ?? '',
      otpExpiry: num(email.otp_expiry, 3600),
      otpLength: num(email.otp_length, 6),
      mfa: {
        maxEnrolledFactors: num(auth.mfa?.max_enrolled_factors, 10),
        totpEnroll: totp.enroll_enabled === true,
        totpVerify: totp.verify_enabled === true,
      },
      rateLimit: {
        signInSignUps: num(rate.sign_in_sign_ups, 30),
        tokenVerifications: num(rate.token_verifications, 30),
        tokenRefresh: num(rate.token_refresh, 150),
        emailSent: num(rate.email_sent, 2),
        ...overrides.rateLimits,
      },
    },
    storage: storageSettings(toml, supabaseDir),
    extraFunctionDirs: overrides.extraFunctionDirs ?? [],
    toml,
  };
}

/** The functions in supabase/functions (and any extra folders), with verify_jwt from config.toml. */
export function listFunctions(config: StackConfig): FunctionSettings[] {
  const dirs = [path.join(config.supabaseDir, 'functions'), ...config.extraFunctionDirs];
  const found: FunctionSettings[] = [];
  for (const base of dirs) {
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('_') || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const dir = path.join(base, entry.name);
      if (!existsSync(path.join(dir, 'index.ts'))) continue;
      const settings = config.toml.functions?.[entry.name] ?? {};
      // The CLI's default is verify_jwt = true.
      found.push({ name: entry.name, dir, verifyJwt: settings.verify_jwt !== false });
    }
  }
  return found;
}
