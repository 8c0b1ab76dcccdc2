// Rules for the names and content types Storage accepts, and for how stored content is labelled
// when served. Object names are checked the way storage-api checks them (S3's safe character
// set, no `.`/`..` segments, 1024 UTF-8 bytes), plus no empty segments, so a name never means
// anything to a file system: objects live on disk under ids, never under their names.

// Storage's bucket naming rule: ASCII, S3-safe punctuation, at most 100 characters.
const BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]{1,100}$/;

// Characters storage-api refuses in object names: C0/C1 controls and DEL, S3's "characters to
// avoid", and invisible code points that can disguise a path (zero-width, bidi overrides, BOM).
const FORBIDDEN_IN_KEY = /[\u0000-\u001f\u007f-\u009f#[\]{}^`"<>\\|%~\u034f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/u;

const MAX_KEY_BYTES = 1024;

export function isValidBucketName(name: string): boolean {
  return BUCKET_NAME.test(name);
}

export function isValidObjectName(name: string): boolean {
  if (name.length === 0 || Buffer.byteLength(name, 'utf8') > MAX_KEY_BYTES) return false;
  if (FORBIDDEN_IN_KEY.test(name)) return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** `text/plain` of `Text/Plain; charset=UTF-8`. */
function mimeEssence(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/** Whether a bucket's allowed_mime_types admit a content type (`image/*` and `*\/*` are wildcards). */
export function mimeTypeAllowed(contentType: string, allowed: string[]): boolean {
  const [type, subtype, ...rest] = mimeEssence(contentType).split('/');
  if (!type || !subtype || rest.length > 0) return false;
  return allowed.some((entry) => {
    const [allowedType, allowedSubtype] = mimeEssence(entry).split('/');
    if (allowedType === '*' && (allowedSubtype === '*' || allowedSubtype === undefined)) return true;
    return allowedType === type && (allowedSubtype === '*' || allowedSubtype === subtype);
  });
}

const TOKEN = "[a-z0-9!#$&^_.+'*-]+";
// A media type that is safe to echo in a header: token/token with simple parameters, nothing else.
const HEADER_SAFE_MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\\\u0000-\\u001f\\u007f]*"))*\\s*$`, 'i');

// Types a browser would run script in, or parse as a document that can (any XML can hold XHTML).
const SCRIPT_CAPABLE = new Set([
  'text/html', 'application/xhtml+xml', 'image/svg+xml', 'text/xml', 'application/xml', 'text/xsl',
  'text/javascript', 'application/javascript', 'application/x-javascript', 'application/ecmascript',
  'text/ecmascript', 'text/jscript', 'text/livescript', 'text/x-javascript', 'text/x-ecmascript',
  'application/x-ecmascript', 'text/x-component', 'application/hta', 'text/x-scriptlet',
  'application/x-shockwave-flash', 'application/futuresplash', 'multipart/x-mixed-replace',
  // PDF viewers run their own scripts; a download is the safe way to hand one over.
  'application/pdf',
]);

// Script-capable types that are text, served as readable plain text rather than as bytes.
function isTextual(essence: string): boolean {
  return essence.startsWith('text/') || /(script|xml)$/.test(essence);
}

function isScriptCapable(contentType: string): boolean {
  const essence = mimeEssence(contentType);
  return SCRIPT_CAPABLE.has(essence) || essence.endsWith('+xml') || essence.endsWith('/xml');
}

function isHeaderSafeMediaType(contentType: string): boolean {
  return contentType.length <= 255 && HEADER_SAFE_MEDIA_TYPE.test(contentType);
}

/**
 * How to label stored content when serving it: its own type when that is harmless, otherwise
 * plain text as an attachment so a browser never renders it as a page.
 */
export function servingLabel(storedType: string | undefined): { contentType: string; forceAttachment: boolean } {
  if (!storedType || !isHeaderSafeMediaType(storedType)) return { contentType: 'application/octet-stream', forceAttachment: false };
  if (isScriptCapable(storedType)) {
    return { contentType: isTextual(mimeEssence(storedType)) ? 'text/plain; charset=utf-8' : 'application/octet-stream', forceAttachment: true };
  }
  return { contentType: storedType, forceAttachment: false };
}

/** A header value made only of printable ASCII (stored cache-control and encodings). */
export function isHeaderSafeValue(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 1024 && /^[\x20-\x7e]*$/.test(value);
}
