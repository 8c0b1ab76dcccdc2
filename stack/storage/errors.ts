// Supabase Storage's error model: a body `{statusCode, code, error, message}` whose statusCode
// (a string) is the semantic status, sent with HTTP 400 for every client error and 500 for
// failures, as storage-api does. supabase-js reads `statusCode` and `code` from the body.
import type { ServerResponse } from 'node:http';
import { sendJson } from '../http.ts';

export class StorageError extends Error {
  /** The semantic status, rendered as the body's `statusCode`. */
  readonly statusCode: number;
  readonly code: string;
  /** The legacy `error` field (storage-api falls back to the code). */
  readonly error: string;
  /** The HTTP status sent; 400 unless the failure is ours. */
  readonly httpStatus: number;
  constructor(options: { statusCode: number; code: string; message: string; error?: string; httpStatus?: number }) {
    super(options.message);
    this.statusCode = options.statusCode;
    this.code = options.code;
    this.error = options.error ?? options.code;
    this.httpStatus = options.httpStatus ?? (options.statusCode >= 500 ? 500 : 400);
  }
}

export const errors = {
  noSuchBucket: () => new StorageError({ statusCode: 404, code: 'NoSuchBucket', error: 'Bucket not found', message: 'Bucket not found' }),
  noSuchKey: () => new StorageError({ statusCode: 404, code: 'NoSuchKey', error: 'not_found', message: 'Object not found' }),
  invalidKey: (key: string) => new StorageError({ statusCode: 400, code: 'InvalidKey', message: `Invalid key: ${key}` }),
  invalidBucketName: () => new StorageError({ statusCode: 400, code: 'InvalidBucketName', error: 'Invalid Input', message: 'Bucket name invalid' }),
  accessDenied: (message: string) => new StorageError({ statusCode: 403, code: 'AccessDenied', error: 'Unauthorized', message }),
  resourceAlreadyExists: () => new StorageError({ statusCode: 409, code: 'ResourceAlreadyExists', error: 'Duplicate', message: 'The resource already exists' }),
  bucketAlreadyExists: () => new StorageError({ statusCode: 409, code: 'BucketAlreadyExists', error: 'Duplicate', message: 'The resource already exists' }),
  bucketNotEmpty: () => new StorageError({ statusCode: 409, code: 'ResourceNotEmpty', message: 'The bucket you tried to delete is not empty' }),
  entityTooLarge: () => new StorageError({ statusCode: 413, code: 'EntityTooLarge', error: 'Payload too large', message: 'The object exceeded the maximum allowed size' }),
  invalidMimeType: (mimeType: string) => new StorageError({ statusCode: 415, code: 'InvalidMimeType', error: 'invalid_mime_type', message: `mime type ${mimeType} is not supported` }),
  invalidJwt: (message: string) => new StorageError({ statusCode: 400, code: 'InvalidJWT', message }),
  invalidSignature: (message = 'Invalid signature') => new StorageError({ statusCode: 400, code: 'InvalidSignature', message }),
  invalidRequest: (message: string) => new StorageError({ statusCode: 400, code: 'InvalidRequest', error: 'Bad Request', message }),
  noContent: () => new StorageError({ statusCode: 400, code: 'InvalidRequest', message: 'No content provided' }),
  relatedResourceNotFound: () => new StorageError({ statusCode: 404, code: 'InvalidRequest', message: 'The related resource does not exist' }),
  databaseTimeout: () => new StorageError({ statusCode: 544, code: 'DatabaseTimeout', message: 'The connection to the database timed out', httpStatus: 544 }),
  databaseError: (pgCode: string) => new StorageError({ statusCode: 500, code: 'DatabaseError', message: `database error, code: ${pgCode}` }),
  internal: () => new StorageError({ statusCode: 500, code: 'InternalError', message: 'Internal server error' }),
};

/**
 * A request no route of storage-api takes: Fastify's own 404, which is not a storage error
 * (no `code`, a numeric statusCode, the raw URL with its query string).
 */
export function sendRouteNotFound(res: ServerResponse, method: string, url: string): void {
  sendJson(res, 404, { message: `Route ${method}:${url} not found`, error: 'Not Found', statusCode: 404 });
}

export function sendStorageError(res: ServerResponse, error: StorageError): void {
  sendJson(res, error.httpStatus, { statusCode: String(error.statusCode), code: error.code, error: error.error, message: error.message });
}
