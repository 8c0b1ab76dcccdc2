// Users as GoTrue stores them in auth.users / auth.identities, and as it returns them (User JSON).
import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { Sql } from 'postgres';
import type { AuthSettings } from '../config.ts';
import { errors, weakPasswordError } from './errors.ts';

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
}

const BCRYPT_COST = 10;
// bcrypt ignores everything after 72 bytes, so GoTrue refuses longer passwords.
const BCRYPT_MAX_BYTES = 72;
const EMAIL_PATTERN = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Validates an email and returns it in the lowercase form GoTrue stores. */
export function normalizeEmail(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw errors.validation('Unable to validate email address: invalid format');
  const email = value.trim().toLowerCase();
  if (email.length > 255 || !EMAIL_PATTERN.test(email)) throw errors.validation('Unable to validate email address: invalid format');
  return email;
}

const CHARACTER_SETS: Record<string, string[]> = {
  letters_digits: ['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  lower_upper_letters_digits: ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  lower_upper_letters_digits_symbols: [
    'abcdefghijklmnopqrstuvwxyz',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    '0123456789',
    "!@#$%^&*()_+-=[]{};'\\:\"|<>?,./`~",
  ],
};

/** GoTrue's password strength check: minimum length and required character classes. */
export function checkPasswordStrength(settings: AuthSettings, password: unknown): string {
  if (typeof password !== 'string' || password === '') throw errors.validation('Password is required', 422);
  if (Buffer.byteLength(password) > BCRYPT_MAX_BYTES) throw errors.validation(`Password cannot be longer than ${BCRYPT_MAX_BYTES} characters`, 422);
  const reasons: string[] = [];
  const messages: string[] = [];
  if (password.length < settings.minimumPasswordLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${settings.minimumPasswordLength} characters.`);
  }
  const sets = CHARACTER_SETS[settings.passwordRequirements] ?? [];
  if (sets.some((set) => ![...password].some((ch) => set.includes(ch)))) {
    reasons.push('characters');
    messages.push(`Password should contain at least one character of each: ${sets.join(', ')}.`);
  }
  if (reasons.length > 0) throw weakPasswordError(messages.join(' '), reasons);
  return password;
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export async function passwordMatches(row: UserRow, password: string): Promise<boolean> {
  if (!row.encrypted_password) return false;
  try {
    return await bcrypt.compare(password, row.encrypted_password);
  } catch {
    return false;
  }
}

export async function findUserById(sql: Sql, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select * from auth.users where id = ${id} and deleted_at is null`;
  return row;
}

export async function findUserByEmail(sql: Sql, email: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`
    select * from auth.users where lower(email) = ${email} and is_sso_user = false and deleted_at is null`;
  return row;
}

export function isBanned(row: UserRow): boolean {
  return row.banned_until !== null && row.banned_until.getTime() > Date.now();
}

/** GoTrue's User JSON, with identities and (only when there are any) factors. */
export async function userJson(sql: Sql, row: UserRow): Promise<Record<string, unknown>> {
  const identities = await sql`
    select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
    from auth.identities where user_id = ${row.id} order by created_at`;
  const factors = await sql`
    select id, friendly_name, factor_type, status, created_at, updated_at, last_challenged_at
    from auth.mfa_factors where user_id = ${row.id} order by created_at`;
  const user: Record<string, unknown> = {
    id: row.id,
    aud: row.aud ?? '',
    role: row.role ?? '',
    email: row.email ?? '',
    email_confirmed_at: row.email_confirmed_at ?? undefined,
    phone: row.phone ?? '',
    phone_confirmed_at: row.phone_confirmed_at ?? undefined,
    confirmation_sent_at: row.confirmation_sent_at ?? undefined,
    confirmed_at: row.confirmed_at ?? undefined,
    recovery_sent_at: row.recovery_sent_at ?? undefined,
    new_email: row.email_change || undefined,
    email_change_sent_at: row.email_change_sent_at ?? undefined,
    invited_at: row.invited_at ?? undefined,
    last_sign_in_at: row.last_sign_in_at ?? undefined,
    app_metadata: row.raw_app_meta_data ?? {},
    user_metadata: row.raw_user_meta_data ?? {},
    identities: identities.map((identity) => ({
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
      last_sign_in_at: identity.last_sign_in_at,
      created_at: identity.created_at,
      updated_at: identity.updated_at,
      email: identity.email,
    })),
    created_at: row.created_at,
    updated_at: row.updated_at,
    banned_until: row.banned_until ?? undefined,
    is_anonymous: row.is_anonymous,
  };
  if (factors.length > 0) user.factors = factors;
  return user;
}

export interface NewUser {
  id?: string;
  email: string;
  password?: string;
  passwordHash?: string;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  confirmed: boolean;
  role?: string;
  bannedUntil?: Date | null;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/**
 * Inserts the user and its email identity in one transaction, metadata included in the insert,
 * so product triggers on auth.users see the same row GoTrue would write. Returns undefined
 * when the email is taken.
 */
export async function insertUser(sql: Sql, input: NewUser): Promise<UserRow | undefined> {
  const id = input.id ?? randomUUID();
  const encrypted = input.passwordHash ?? (input.password ? await hashPassword(input.password) : '');
  const appMetadata = { provider: 'email', providers: ['email'], ...(input.appMetadata ?? {}) };
  const userMetadata = { ...(input.userMetadata ?? {}) };
  const identityData = { sub: id, email: input.email, email_verified: input.confirmed, phone_verified: false };
  try {
    return await sql.begin(async (tx) => {
      const [row] = await tx<UserRow[]>`
        insert into auth.users (
          instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
          raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at,
          confirmation_token, recovery_token, email_change_token_new, email_change, banned_until, is_anonymous
        ) values (
          '00000000-0000-0000-0000-000000000000', ${id}, 'authenticated', ${input.role ?? 'authenticated'},
          ${input.email}, ${encrypted}, ${input.confirmed ? new Date() : null},
          ${JSON.stringify(appMetadata)}::text::jsonb, ${JSON.stringify(userMetadata)}::text::jsonb, false, now(), now(),
          '', '', '', '', ${input.bannedUntil ?? null}, false
        ) returning *`;
      await tx`
        insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
        values (${randomUUID()}, ${id}, ${id}, ${JSON.stringify(identityData)}::text::jsonb, 'email', now(), now(), now())`;
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** Changes the email of a user and of its email identity; false when the email is taken. */
export async function changeEmail(sql: Sql, userId: string, email: string): Promise<boolean> {
  try {
    await sql.begin(async (tx) => {
      await tx`update auth.users set email = ${email}, email_change = '', email_change_token_new = '',
        email_change_token_current = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
        where id = ${userId}`;
      await tx`update auth.identities set identity_data = identity_data || ${JSON.stringify({ email })}::text::jsonb, updated_at = now()
        where user_id = ${userId} and provider = 'email'`;
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
